package io.github.boundedupload.autoconfigure;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Records that a bean uses another it got from an {@code ObjectProvider} (which, unlike a plain parameter, registers no
 * dependency), so that Spring closes the user before the used: the uploader before its storage, the storage before the
 * application's client. Creation order alone gives the same order almost always; this makes it certain. Changes when
 * the way a bean's use of another is recorded changes.
 */
final class BeanDependencies {

    private BeanDependencies() {
    }

    /**
     * Registers {@code user} as dependent on the bean (of the given type) that is {@code used}.
     *
     * @param beanFactory the bean factory
     * @param type the type the used bean was looked up by
     * @param used the instance the lookup returned
     * @param user the name of the bean that uses it
     */
    static void register(ConfigurableListableBeanFactory beanFactory, Class<?> type, Object used, String user) {
        for (String name : beanFactory.getBeanNamesForType(type, true, false)) {
            if (beanFactory.getBean(name) == used) {
                beanFactory.registerDependentBean(name, user);
            }
        }
    }
}
