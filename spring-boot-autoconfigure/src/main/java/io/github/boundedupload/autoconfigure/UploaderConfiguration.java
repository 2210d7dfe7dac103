package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.micrometer.ContextSnapshotPropagator;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.spi.UploadListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.util.ClassUtils;

/**
 * The uploader, its configuration, and the parts of the configuration that are beans of their own. Changes when the
 * beans that make up the auto-configured uploader change.
 */
@Configuration(proxyBeanMethods = false)
class UploaderConfiguration {

    static final String UPLOADER_BEAN_NAME = "boundedUploader";
    static final String CONFIG_BEAN_NAME = "boundedUploadConfig";

    private static final int FIRST_RELEASE_WITH_VIRTUAL_THREADS = 21;

    /**
     * The MDC (unless {@code bounded-upload.mdc.enabled=false}); with Micrometer's context-propagation library on the
     * class path (it comes with tracing), every thread-local registered with it: the current observation, and so the
     * span, the security context; then the application's {@link TaskDecorator} beans, in order, as Spring Boot
     * applies them to its own task executors.
     */
    @Bean
    @ConditionalOnMissingBean
    ContextPropagator boundedUploadContextPropagator(BoundedUploadProperties properties,
            ObjectProvider<TaskDecorator> taskDecorators) {
        return propagator(properties.getMdc().isEnabled(), ClassUtils.isPresent(
                "io.micrometer.context.ContextSnapshotFactory", UploaderConfiguration.class.getClassLoader()),
                taskDecorators.orderedStream().toList());
    }

    static ContextPropagator propagator(boolean mdc, boolean contextSnapshots, List<TaskDecorator> taskDecorators) {
        List<ContextPropagator> propagators = new ArrayList<>();
        if (mdc) {
            propagators.add(ContextPropagator.mdc());
        }
        if (contextSnapshots) {
            propagators.add(new ContextSnapshotPropagator());
        }
        List<TaskDecorator> decorators = contextSnapshots ? taskDecorators.stream()
                .filter(decorator -> !(decorator instanceof ContextPropagatingTaskDecorator)) // done just above
                .toList() : taskDecorators;
        if (!decorators.isEmpty()) {
            propagators.add(new TaskDecoratorPropagator(
                    decorators.size() == 1 ? decorators.get(0) : new CompositeTaskDecorator(decorators)));
        }
        return propagators.isEmpty() ? ContextPropagator.none()
                : propagators.size() == 1 ? propagators.get(0)
                : ContextPropagator.of(propagators.toArray(ContextPropagator[]::new));
    }

    @Bean
    @ConditionalOnMissingBean
    KeyStrategy boundedUploadKeyStrategy(BoundedUploadProperties properties) {
        return KeyStrategy.datedUuid(properties.getKeyPrefix());
    }

    /**
     * Properties first, then the beans that stand for parts of the configuration, then the customizers in order:
     * whatever comes later wins.
     */
    @Bean(CONFIG_BEAN_NAME)
    @ConditionalOnMissingBean
    UploaderConfig boundedUploadConfig(BoundedUploadProperties properties, Environment environment,
            ContextPropagator contextPropagator, KeyStrategy keyStrategy,
            @Qualifier(BoundedUploadAutoConfiguration.EXECUTOR_BEAN_NAME) ObjectProvider<Executor> executor,
            ObjectProvider<UploadListener> listeners, ObjectProvider<UploadJournal> journal,
            ObjectProvider<UploaderConfigCustomizer> customizers,
            ConfigurableListableBeanFactory beanFactory) {
        Executor own = executor.getIfAvailable();
        if (own != null) {
            // The application's executor is shut down after the uploader that runs on it (which uses this config).
            BeanDependencies.register(beanFactory, Executor.class, own, CONFIG_BEAN_NAME);
        }
        UploaderConfig.Builder builder = UploaderSettings.applyTo(properties, UploaderConfig.builder())
                .executorType(executorType(properties, environment))
                .executor(own)
                .contextPropagator(contextPropagator)
                .keyStrategy(keyStrategy)
                .journal(journal.getIfUnique());
        listeners.orderedStream().forEach(builder::listener);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return UploaderSetupException.afterCustomizers("configuration is invalid", "UploaderConfigCustomizer",
                builder::build);
    }

    /** An explicit {@code bounded-upload.executor.type} wins over {@code spring.threads.virtual.enabled}. */
    static ExecutorType executorType(BoundedUploadProperties properties, Environment environment) {
        ExecutorType type = properties.getExecutor().getType();
        if (type != null) {
            return type;
        }
        boolean virtual = environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)
                && Runtime.version().feature() >= FIRST_RELEASE_WITH_VIRTUAL_THREADS;
        return virtual ? ExecutorType.VIRTUAL : UploaderConfig.DEFAULT_EXECUTOR_TYPE;
    }

    /**
     * Drained in Spring Boot's shutdown, side by side with the web server's graceful shutdown ({@link UploaderDrain}):
     * running batches get the shutdown grace period, then the uploader's own threads stop. The destroy method closes
     * it too, for a context whose lifecycle never ran (closing twice does nothing), after every bean that depends on
     * it is gone.
     */
    @Bean(name = UPLOADER_BEAN_NAME, destroyMethod = "close")
    @ConditionalOnMissingBean
    ConcurrentAttachmentUploader boundedUploader(UploaderConfig config, ObjectProvider<FileUploader> fileUploader,
            ObjectProvider<AsyncFileUploader> asyncFileUploader, ConfigurableListableBeanFactory beanFactory) {
        FileUploader blocking = fileUploader.getIfUnique();
        AsyncFileUploader async = asyncFileUploader.getIfUnique();
        if (async != null && (blocking == null || blocking == async)) {
            // Closed before its storage, so that batches end before the storage (and its client) goes.
            BeanDependencies.register(beanFactory, AsyncFileUploader.class, async, UPLOADER_BEAN_NAME);
            return ConcurrentAttachmentUploader.create(async, config);
        }
        if (blocking != null && async == null) {
            BeanDependencies.register(beanFactory, FileUploader.class, blocking, UPLOADER_BEAN_NAME);
            return ConcurrentAttachmentUploader.create(blocking, config);
        }
        throw new UploaderSetupException("The bounded-upload uploader needs exactly one storage, and found "
                + describe(blocking, fileUploader, "FileUploader") + " and "
                + describe(async, asyncFileUploader, "AsyncFileUploader") + ".",
                "Define a single FileUploader or AsyncFileUploader bean (or mark one @Primary), or define the "
                        + "ConcurrentAttachmentUploader bean yourself.");
    }

    private static String describe(@Nullable Object unique, ObjectProvider<?> provider, String type) {
        long count = unique != null ? 1 : provider.stream().count();
        return count + " " + type + " bean" + (count == 1 ? "" : "s");
    }
}
