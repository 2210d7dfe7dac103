package io.github.boundedupload.examples.studyweek;

import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.examples.studyweek.week.WeekService;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The application's beans that are not components of their own. Changes when one of these beans changes. */
@Configuration(proxyBeanMethods = false)
class AppConfiguration {

    /** Replaces the starter's default key strategy (the starter backs off when a {@link KeyStrategy} bean exists). */
    @Bean
    KeyStrategy studyKeyStrategy() {
        return WeekService.keyStrategy();
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
