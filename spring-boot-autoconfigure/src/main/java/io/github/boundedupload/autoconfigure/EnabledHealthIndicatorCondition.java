package io.github.boundedupload.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Spring Boot's switch for a health indicator, the same on Boot 3 and 4 (whose own condition annotations live in
 * different packages): {@code management.health.bounded-upload.enabled}, else
 * {@code management.health.defaults.enabled}, else on. Changes when Spring Boot's switch for health indicators changes.
 */
class EnabledHealthIndicatorCondition extends SpringBootCondition {

    static final String PROPERTY = "management.health.bounded-upload.enabled";
    static final String DEFAULTS = "management.health.defaults.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return outcome(context, PROPERTY, DEFAULTS);
    }

    /** Spring Boot's switch of an Actuator part: its own property, else the defaults property, else on. */
    static ConditionOutcome outcome(ConditionContext context, String property, String defaultsProperty) {
        // The binder, so that management.health.boundedUpload.enabled (and the other relaxed forms) count too.
        Binder binder = Binder.get(context.getEnvironment());
        Boolean own = binder.bind(property, Boolean.class).orElse(null);
        if (own != null) {
            return new ConditionOutcome(own, property + " is " + own);
        }
        boolean defaults = binder.bind(defaultsProperty, Boolean.class).orElse(true);
        return new ConditionOutcome(defaults, defaultsProperty + " is " + defaults);
    }

    /**
     * The switch of the info contributor: {@code management.info.bounded-upload.enabled}, else
     * {@code management.info.defaults.enabled}, else on.
     */
    static class Info extends SpringBootCondition {

        static final String PROPERTY = "management.info.bounded-upload.enabled";
        static final String DEFAULTS = "management.info.defaults.enabled";

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return outcome(context, PROPERTY, DEFAULTS);
        }
    }
}
