package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration metadata that the build generates from {@link BoundedUploadProperties} is complete and true, and
 * {@code docs/spring-boot-properties.md} and the table in the README's Spring Boot section are made from it. When the
 * properties change, regenerate both with
 * <pre>
 * ./mvnw -pl spring-boot-autoconfigure -am test -Dtest=PropertiesDocumentationTests \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dbounded-upload.docs.write=true
 * </pre>
 */
class PropertiesDocumentationTests {

    private static final String PAGE = "spring-boot-properties.md";
    private static final String REGENERATE = " is stale; regenerate it with ./mvnw -pl spring-boot-autoconfigure -am"
            + " test -Dtest=PropertiesDocumentationTests -Dsurefire.failIfNoSpecifiedTests=false"
            + " -Dbounded-upload.docs.write=true";
    private static final String STALE = "docs/" + PAGE + REGENERATE;
    /** The README's generated region: everything between these lines is replaced. */
    static final String README_START = "<!-- spring-boot-properties:start -->";
    static final String README_END = "<!-- spring-boot-properties:end -->";

    @Test
    void everyPropertyHasADescription() throws IOException {
        assertThat(properties()).isNotEmpty().allSatisfy(property -> assertThat((String) property.get("description"))
                .as("description of %s", property.get("name")).isNotBlank().endsWith("."));
    }

    /**
     * The defaults in additional-spring-configuration-metadata.json (the processor cannot read the core's constants)
     * must be what the properties class really starts with.
     */
    @Test
    void theDocumentedDefaultsAreTheRealOnes() throws IOException {
        BeanWrapperImpl fresh = new BeanWrapperImpl(new BoundedUploadProperties());
        for (Map<String, Object> property : properties()) {
            String name = (String) property.get("name");
            if (!name.startsWith(BoundedUploadProperties.PREFIX + ".")) {
                continue; // Spring Boot's own keys that the starter reads: BoundedUploadProperties has none of them
            }
            Object actual = fresh.getPropertyValue(path(name));
            Object documented = property.get("defaultValue");
            if (documented == null) {
                assertThat(actual).as("%s has a default but documents none", name).isNull();
            } else {
                Class<?> type = ClassUtils.resolveClassName((String) property.get("type"), null);
                assertThat(ApplicationConversionService.getSharedInstance().convert(documented, type))
                        .as("documented default of %s", name).isEqualTo(actual);
            }
        }
    }

    @Test
    void thePropertyPageIsMadeFromTheMetadata() throws IOException {
        String expected = page(properties());
        Path file = docsDir().resolve(PAGE);
        if (Boolean.getBoolean("bounded-upload.docs.write")) {
            Files.writeString(file, expected);
        }
        assertThat(file).as(STALE).exists();
        assertThat(Files.readString(file)).as(STALE).isEqualTo(expected);
    }

    /** The keys UnknownPropertiesCheck knows are exactly those of the configuration metadata. */
    @Test
    void theUnknownKeysCheckKnowsEveryPropertyOfTheMetadata() throws IOException {
        assertThat(UnknownPropertiesCheck.KEYS).containsExactlyInAnyOrderElementsOf(
                properties().stream().map(property -> (String) property.get("name"))
                        .filter(name -> name.startsWith(BoundedUploadProperties.PREFIX + ".")).toList());
    }

    /** Every key of Spring Boot's own that the starter reads is described, so that IDEs know it. */
    @Test
    void theManagementKeysTheStarterReadsHaveMetadata() throws IOException {
        assertThat(properties()).extracting(property -> (String) property.get("name"))
                .contains(EnabledHealthIndicatorCondition.PROPERTY, EnabledHealthIndicatorCondition.Info.PROPERTY);
    }

    /** The README keeps its own text; only the marked region is the generated table. */
    @Test
    void theReadmeTableIsMadeFromTheMetadata() throws IOException {
        Path readme = docsDir().getParent().resolve("README.md");
        String text = Files.readString(readme);
        int start = text.indexOf(README_START);
        int end = text.indexOf(README_END);
        assertThat(start).as("README.md has the line " + README_START).isNotNegative();
        assertThat(end).as("README.md has the line " + README_END + " after " + README_START).isGreaterThan(start);
        String expected = text.substring(0, start) + README_START + "\n" + readmeTable(properties())
                + text.substring(end);
        if (Boolean.getBoolean("bounded-upload.docs.write")) {
            Files.writeString(readme, expected);
        }
        assertThat(Files.readString(readme)).as("the properties table of README.md" + REGENERATE).isEqualTo(expected);
    }

    /** Name, default, and the first sentence of the description; the page has the rest. */
    static String readmeTable(List<Map<String, Object>> properties) {
        StringBuilder table = new StringBuilder()
                .append("<!-- Generated from the configuration metadata by PropertiesDocumentationTests; do not edit")
                .append(" between these markers. -->\n")
                .append("| Property | Default | What |\n")
                .append("| --- | --- | --- |\n");
        for (Map<String, Object> property : properties) {
            String description = (String) property.get("description");
            int sentence = description.indexOf(". ");
            table.append("| `").append(property.get("name")).append("` | ").append(defaultValue(property))
                    .append(" | ").append(escape(sentence < 0 ? description : description.substring(0, sentence + 1)))
                    .append(" |\n");
        }
        return table.toString();
    }

    private static String defaultValue(Map<String, Object> property) {
        Object value = property.get("defaultValue");
        return value == null ? "" : "`" + (value.equals("") ? "\"\"" : value) + "`";
    }

    private static Path docsDir() {
        return Path.of(System.getProperty("bounded-upload.docs.dir", "../docs")).toAbsolutePath().normalize();
    }

    static String page(List<Map<String, Object>> properties) {
        StringBuilder page = new StringBuilder()
                .append("<!-- Generated from META-INF/spring-configuration-metadata.json by")
                .append(" PropertiesDocumentationTests (spring-boot-autoconfigure); do not edit. -->\n")
                .append("# Spring Boot properties\n\n")
                .append("Every property of the `bounded-upload` Spring Boot starter, with its default. ")
                .append("Sizes take `B`, ")
                .append("`KB`, `MB`, `GB` (powers of 1024); durations take `ms`, `s`, `m`, `h`, `d`. ")
                .append("Enum values are case-insensitive (`caller-runs` or `CALLER_RUNS`).\n\n")
                .append("| Property | Default | Description |\n")
                .append("| --- | --- | --- |\n");
        for (Map<String, Object> property : properties) {
            page.append("| `").append(property.get("name")).append("` | ").append(defaultValue(property))
                    .append(" | ").append(escape((String) property.get("description"))).append(" |\n");
        }
        return page.toString();
    }

    private static String escape(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** {@code bounded-upload.executor.type} as the bean path {@code executor.type}. */
    private static String path(String name) {
        Matcher dash = Pattern.compile("-([a-z])").matcher(name.substring(BoundedUploadProperties.PREFIX.length() + 1));
        StringBuilder path = new StringBuilder();
        while (dash.find()) {
            dash.appendReplacement(path, dash.group(1).toUpperCase(java.util.Locale.ROOT));
        }
        return dash.appendTail(path).toString();
    }

    @SuppressWarnings("unchecked")
    /** Every storage class the metadata suggests is one the adapter accepts. */
    @Test
    void theStorageClassHintsAreTheAcceptedValues() throws IOException {
        List<String> hinted = new java.util.ArrayList<>();
        for (Map<String, Object> hint : hints()) {
            if (hint.get("name").equals("bounded-upload.s3.storage-class")) {
                for (Object value : (List<?>) hint.get("values")) {
                    hinted.add((String) ((Map<?, ?>) value).get("value"));
                }
            }
        }
        assertThat(hinted).isNotEmpty().allSatisfy(value -> assertThat(S3Options.storageClass(value))
                .as(value).isNotEqualTo(software.amazon.awssdk.services.s3.model.StorageClass.UNKNOWN_TO_SDK_VERSION));
        assertThat(hinted).doesNotHaveDuplicates().contains("standard", "standard-ia", "intelligent-tiering",
                "glacier-ir", "deep-archive");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> hints() throws IOException {
        try (InputStream in = Objects.requireNonNull(PropertiesDocumentationTests.class.getClassLoader()
                .getResourceAsStream("META-INF/spring-configuration-metadata.json"), "no generated metadata")) {
            Map<String, Object> metadata = JsonMapper.builder().build().readValue(
                    new String(in.readAllBytes(), StandardCharsets.UTF_8), Map.class);
            return (List<Map<String, Object>>) metadata.get("hints");
        }
    }

    static List<Map<String, Object>> properties() throws IOException {
        try (InputStream in = Objects.requireNonNull(PropertiesDocumentationTests.class.getClassLoader()
                .getResourceAsStream("META-INF/spring-configuration-metadata.json"), "no generated metadata")) {
            Map<String, Object> metadata = JsonMapper.builder().build().readValue(
                    new String(in.readAllBytes(), StandardCharsets.UTF_8), Map.class);
            return (List<Map<String, Object>>) metadata.get("properties");
        }
    }
}
