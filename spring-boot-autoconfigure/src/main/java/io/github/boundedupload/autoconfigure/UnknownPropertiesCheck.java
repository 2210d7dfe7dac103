package io.github.boundedupload.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Fails start-up on a key under {@code bounded-upload.*} that no property has, naming the nearest one: Spring Boot
 * ignores unknown keys, so a misspelt {@code bounded-upload.s3.buckt} would otherwise leave the application without
 * the setting it was meant to have, silently. Runs once the properties are bound, before any bean reads them.
 * Changes when what counts as an unknown property changes.
 *
 * <p>Checked: every source of the application's own configuration (its files, command-line arguments, test
 * properties, imported config data). Not checked: environment variables and JVM system properties, which everything
 * in the process shares, so a name there may be meant for another tool (this project's own test services read
 * {@code BOUNDED_UPLOAD_S3_ENDPOINT}, {@code BOUNDED_UPLOAD_CACHE} and {@code -Dbounded-upload.s3-server}).
 */
final class UnknownPropertiesCheck implements BeanPostProcessor {

    private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of(BoundedUploadProperties.PREFIX);

    /** Every valid key, in its canonical (dashed) form, read from the properties classes. */
    static final Set<String> KEYS = Collections.unmodifiableSet(keys(BoundedUploadProperties.class,
            BoundedUploadProperties.PREFIX, new TreeSet<>()));

    private static final List<ConfigurationPropertyName> NAMES = KEYS.stream().map(ConfigurationPropertyName::of)
            .toList();

    private final Environment environment;

    UnknownPropertiesCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof BoundedUploadProperties) {
            check(environment);
        }
        return bean;
    }

    /**
     * Fails when a source of the application's configuration sets a key under the prefix that is not a
     * property.
     *
     * @param environment the environment
     * @throws UploaderSetupException naming every unknown key, where it was set, and the nearest valid key
     */
    static void check(Environment environment) {
        Map<String, String> unknown = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource) || isProcessWide(source)) {
                continue;
            }
            IterableConfigurationPropertySource iterable = (IterableConfigurationPropertySource) source;
            iterable.filter(PREFIX::isAncestorOf).stream().filter(name -> !known(name))
                    .forEach(name -> unknown.putIfAbsent(name.toString(), origin(iterable.getConfigurationProperty(
                            name))));
        }
        if (unknown.isEmpty()) {
            return;
        }
        List<String> described = new ArrayList<>();
        unknown.forEach((key, origin) -> described.add(key + origin + ": did you mean " + nearest(key) + "?"));
        throw new UploaderSetupException("Unknown bounded-upload propert" + (described.size() == 1 ? "y " : "ies ")
                + String.join("; ", described),
                "Correct or remove it: every property is listed in docs/spring-boot-properties.md (and completed by "
                        + "your IDE).");
    }

    private static boolean isProcessWide(ConfigurationPropertySource source) {
        Object underlying = source.getUnderlyingSource();
        return underlying instanceof SystemEnvironmentPropertySource || underlying instanceof PropertySource
                && StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(
                        ((PropertySource<?>) underlying).getName());
    }

    private static boolean known(ConfigurationPropertyName name) {
        return NAMES.contains(name);
    }

    private static String origin(@Nullable ConfigurationProperty property) {
        Origin origin = property != null ? property.getOrigin() : null;
        return origin != null ? " (" + origin + ")" : "";
    }

    /** The valid key the fewest edits away, compared without dashes and case, as Spring Boot binds them. */
    static String nearest(String key) {
        String uniform = uniform(key);
        return KEYS.stream().min(Comparator.comparingInt((String valid) -> distance(uniform, uniform(valid)))
                .thenComparing(Comparator.naturalOrder())).orElseThrow();
    }

    private static String uniform(String key) {
        return key.replace("-", "").toLowerCase(Locale.ROOT);
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /**
     * The keys of a properties class: a property with a setter is a key; a read-only property whose type is one of
     * this package's (a nested group, such as {@code s3}) holds more.
     */
    private static Set<String> keys(Class<?> type, String prefix, Set<String> keys) {
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
            if (property.getReadMethod() == null || property.getName().equals("class")) {
                continue;
            }
            String key = prefix + "." + dashed(property.getName());
            Class<?> propertyType = property.getPropertyType();
            if (property.getWriteMethod() != null) {
                keys.add(key);
            } else if (propertyType.getPackage() == BoundedUploadProperties.class.getPackage()) {
                keys(propertyType, key, keys);
            }
        }
        return keys;
    }

    private static String dashed(String name) {
        StringBuilder dashed = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (Character.isUpperCase(c)) {
                dashed.append('-').append(Character.toLowerCase(c));
            } else {
                dashed.append(c);
            }
        }
        return dashed.toString();
    }
}
