package io.github.boundedupload.testsupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@link ArchitectureRules} every module of this build keeps, as tests: extend it in a module's tests with the
 * module's root package and settings classes. One instance for all its tests, so that the module's classes are read
 * once. Changes when a rule every module keeps is added or dropped.
 *
 * <p>Not for storages written elsewhere: it needs ArchUnit, which this module declares optional.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ArchitectureContract {

    private final JavaClasses classes;
    private final Path sourceRoot;
    private final Set<String> settingsClasses;

    /**
     * The module's structure.
     *
     * @param rootPackage the module's root package
     * @param sourceRoot the module's {@code src/main/java}
     * @param settingsClasses the simple names of its settings classes, which may be longer than the others
     */
    protected ArchitectureContract(String rootPackage, Path sourceRoot, Set<String> settingsClasses) {
        this.classes = ArchitectureRules.mainClasses(rootPackage);
        this.sourceRoot = sourceRoot;
        this.settingsClasses = settingsClasses;
    }

    /**
     * The module's main classes, for rules of its own.
     *
     * @return its classes
     */
    protected final JavaClasses classes() {
        return classes;
    }

    @Test
    void oneWriterPerField() {
        ArchitectureRules.oneWriterPerField().check(classes);
    }

    @Test
    void internalPackagesDependInOneDirection() {
        ArchitectureRules.internalPackagesDependInOneDirection().check(classes);
    }

    @Test
    void noLongFilesButTheSettings() {
        ArchitectureRules.noLongFilesBut(sourceRoot, settingsClasses);
    }
}
