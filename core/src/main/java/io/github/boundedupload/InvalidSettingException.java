package io.github.boundedupload;

import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A setting of a builder has a value it does not allow. The message is {@code "<setting> must be <allowed>, was
 * <value>"}; the parts are available separately, and the rule can be rendered with the names a framework gives the
 * settings ({@link #allowed(UnaryOperator)}: Spring Boot names the properties), so that nobody has to parse messages.
 * Thrown by {@link UploaderConfig.Builder#build()} and by the storage adapters' option builders. Changes when what a
 * refused setting reports changes.
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;
    private final String value;
    private final String rule;
    /** What is said of the setting: {@code "must be " + rule}, or a requirement of its own. */
    private final String predicate;

    /**
     * An exception for a refused value.
     *
     * @param setting the builder method's name, for example {@code partSize}
     * @param value the refused value, as text
     * @param rule what the setting allows; other settings it mentions are written in braces, for example
     *        {@code "from 1 to {maxConcurrentUploads} (4)"}
     */
    public InvalidSettingException(String setting, String value, String rule) {
        this(setting, value, rule, "must be " + rule);
    }

    private InvalidSettingException(String setting, String value, String rule, String predicate) {
        super(setting + " " + render(predicate, UnaryOperator.identity()) + ", was " + value);
        this.setting = Objects.requireNonNull(setting, "setting");
        this.value = Objects.requireNonNull(value, "value");
        this.rule = Objects.requireNonNull(rule, "rule");
        this.predicate = predicate;
    }

    /**
     * An exception for a setting that breaks a rule about another one, said as it is rather than as "must be":
     * {@code requirement("kmsKeyId", "AES256", "is set, and a KMS key needs {serverSideEncryption} aws:kms")} reads
     * "kmsKeyId is set, and a KMS key needs serverSideEncryption aws:kms, was AES256".
     *
     * @param setting the builder method's name
     * @param value the value the rule is about, as text
     * @param predicate what is wrong, other settings written in braces
     * @return the exception
     */
    public static InvalidSettingException requirement(String setting, String value, String predicate) {
        return new InvalidSettingException(setting, value, predicate, predicate);
    }

    /**
     * The builder method's name, for example {@code maxConcurrentUploadsPerBatch}.
     *
     * @return the setting
     */
    public String setting() {
        return setting;
    }

    /**
     * The refused value, as text.
     *
     * @return the value
     */
    public String value() {
        return value;
    }

    /**
     * What the setting allows, naming other settings by their builder methods, for example
     * {@code "from 1 to maxConcurrentUploads (4)"}.
     *
     * @return the rule
     */
    public String allowed() {
        return render(rule, UnaryOperator.identity());
    }

    /**
     * Why the value is refused, without the setting's name, with the other settings it mentions named by
     * {@code names}: {@code "must be from 1 to bounded-upload.max-concurrent-uploads (4), was 8"}.
     *
     * @param names turns a builder method's name into the name to show (a property name, for example)
     * @return the reason
     */
    public String reason(UnaryOperator<String> names) {
        return render(predicate, names) + ", was " + value;
    }

    /**
     * What the setting allows, with the other settings it mentions named by {@code names}.
     *
     * @param names turns a builder method's name into the name to show (a property name, for example)
     * @return the rule
     */
    public String allowed(UnaryOperator<String> names) {
        return render(rule, names);
    }

    private static String render(String rule, UnaryOperator<String> names) {
        StringBuilder out = new StringBuilder(rule.length() + 16);
        int from = 0;
        for (int open = rule.indexOf('{'); open >= 0; open = rule.indexOf('{', from)) {
            int close = rule.indexOf('}', open);
            if (close < 0) {
                break;
            }
            out.append(rule, from, open).append(names.apply(rule.substring(open + 1, close)));
            from = close + 1;
        }
        return out.append(rule, from, rule.length()).toString();
    }
}
