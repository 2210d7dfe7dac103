package io.github.boundedupload.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Spring Boot's switch for a health indicator, the same on Boot 3 and 4 (whose own condition annotations live in
 * different packages): {@code management.health.bounded-upload.enabled}, else
 * {@code management.health.defaults.enabled}, else on.
 */
class EnabledHealthIndicatorCondition extends SpringBootCondition {

    static final String PROPERTY = "management.health.bounded-upload.enabled";
    static final String DEFAULTS = "management.health.defaults.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        // The binder, so that management.health.boundedUpload.enabled (and the other relaxed forms) count too.
        Binder binder = Binder.get(context.getEnvironment());
        Boolean own = binder.bind(PROPERTY, Boolean.class).orElse(null);
        if (own != null) {
            return new ConditionOutcome(own, PROPERTY + " is " + own);
        }
        boolean defaults = binder.bind(DEFAULTS, Boolean.class).orElse(true);
        return new ConditionOutcome(defaults, DEFAULTS + " is " + defaults);
    }
}
