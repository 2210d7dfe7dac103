package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/** Guards the build: each module runs these tests on the Spring Boot version it is meant to test. */
class SpringBootVersionTests {

    @Test
    void runsOnTheSpringBootVersionTheBuildAskedFor() {
        String expected = System.getProperty("bounded-upload.expected-spring-boot");
        assumeTrue(expected != null, "set by the Maven build only");
        assertThat(SpringBootVersion.getVersion()).isEqualTo(expected);
        assertThat(TestSupport.BOOT_4).isEqualTo(expected.startsWith("4."));
    }
}
