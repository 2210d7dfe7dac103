package io.github.boundedupload.testsupport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The rules the structure of this build's modules keeps (ArchUnit), run as tests by {@link ArchitectureContract}, which
 * each module's {@code ArchitectureTest} extends (core's in this module's tests, since core cannot depend on this
 * module): so that a performance change cannot undo them unnoticed. {@code docs/design.md} says why each holds. Changes when a rule of the structure changes.
 *
 * <p>Not for storages written elsewhere: it needs ArchUnit, which this module declares optional.
 */
public final class ArchitectureRules {

    /** A main source file over this many lines is split, unless it is a settings class. */
    public static final int MAX_LINES = 400;

    private ArchitectureRules() {
    }

    /**
     * The main classes of the packages under {@code rootPackage} (tests and this module's packages left out).
     *
     * @param rootPackage the module's root package
     * @return its classes
     */
    public static JavaClasses mainClasses(String rootPackage) {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/testsupport/"))
                .importPackages(rootPackage);
    }

    /**
     * No top-level class writes a field that another top-level class declares (a nested class counts as its outer
     * class): every piece of state has one writer, which others ask, or report to, through methods.
     *
     * @return the rule
     */
    public static ArchRule oneWriterPerField() {
        return classes().should(new ArchCondition<JavaClass>("write only fields their own top-level class declares") {
            @Override
            public void check(JavaClass writer, ConditionEvents events) {
                for (JavaFieldAccess access : writer.getFieldAccessesFromSelf()) {
                    if (access.getAccessType() != JavaFieldAccess.AccessType.SET) {
                        continue;
                    }
                    JavaClass declaring = access.getTarget().resolveMember().map(JavaField::getOwner)
                            .orElse(access.getTargetOwner());
                    if (topLevel(declaring) != topLevel(writer)
                            && declaring.getPackageName().startsWith("io.github.boundedupload")) {
                        events.add(SimpleConditionEvent.violated(access, access.getDescription()));
                    }
                }
            }
        });
    }

    /**
     * No cycle among the {@code internal} packages and their subpackages: they depend on each other in one direction.
     * (Internal code may use the public API and SPI, and the public classes of an adapter the internal ones that do
     * their work; that is not a cycle among internal packages.)
     *
     * @return the rule
     */
    public static ArchRule internalPackagesDependInOneDirection() {
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                return javaClass.getPackageName().contains(".internal")
                        ? SliceIdentifier.of(javaClass.getPackageName())
                        : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "internal packages";
            }
        }).should().beFreeOfCycles();
    }

    /**
     * The public API and SPI (every package under {@code rootPackage} but the internal ones) name nothing internal,
     * except {@code factory}, the one public type that builds the engine.
     *
     * @param factory the public type that builds the engine
     * @return the rule
     */
    public static ArchRule apiNamesNoInternalBut(Class<?> factory) {
        return noClasses().that().resideOutsideOfPackage("..internal..")
                .and(DescribedPredicate.not(topLevelIs(factory)))
                .should().dependOnClassesThat().resideInAPackage("..internal..");
    }

    /**
     * Asserts that no main source file under {@code sourceRoot} is over {@link #MAX_LINES} lines, except the settings
     * classes (a builder with a setter and its Javadoc per option).
     *
     * @param sourceRoot the module's {@code src/main/java}
     * @param settingsClasses the simple names of the settings classes
     */
    public static void noLongFilesBut(Path sourceRoot, Set<String> settingsClasses) {
        Map<String, Long> tooLong = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sourceRoot)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                String name = file.getFileName().toString().replace(".java", "");
                long lines = lines(file);
                if (lines > MAX_LINES && !settingsClasses.contains(name)) {
                    tooLong.put(sourceRoot.relativize(file).toString(), lines);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(tooLong).as("main files over %d lines (split them: docs/design.md)", MAX_LINES).isEmpty();
        assertThat(sourceRoot).as("the source root checked").isDirectory();
    }

    private static long lines(Path file) throws IOException {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        }
    }

    private static DescribedPredicate<JavaClass> topLevelIs(Class<?> type) {
        return DescribedPredicate.describe(type.getSimpleName() + " (or a class nested in it)",
                javaClass -> topLevel(javaClass).isEquivalentTo(type));
    }

    private static JavaClass topLevel(JavaClass javaClass) {
        JavaClass outer = javaClass;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }
}
