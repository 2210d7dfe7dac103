package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.spi.ContextPropagator;
import java.util.Objects;
import org.springframework.core.task.TaskDecorator;

/**
 * Carries the context of the application's {@link TaskDecorator} beans (the ones Spring Boot applies to its own task
 * executors: {@code spring.task.execution.propagate-context}'s, Spring Security's, a tenant's) to the upload threads.
 * Changes when the way task decorators' context reaches the upload threads changes.
 *
 * <p>An uploader's tasks are handed to a thread by whichever thread frees a permit, often another batch's upload, so
 * decorating them when they are submitted would capture the wrong thread's context. Instead, the decorator decorates
 * once per batch, on the thread that submits the batch, a task that runs whatever work of the batch its thread is
 * given; the uploader runs each piece of the batch's work through it. A decorator is expected to run the task on the
 * thread that runs the decorated one (every context-propagating decorator does); one that does not, or that fails,
 * costs the context, never the upload.
 */
final class TaskDecoratorPropagator implements ContextPropagator {

    private final TaskDecorator decorator;

    TaskDecoratorPropagator(TaskDecorator decorator) {
        this.decorator = Objects.requireNonNull(decorator, "decorator");
    }

    @Override
    public Captured capture() {
        ThreadLocal<Runnable> work = new ThreadLocal<>();
        Runnable decorated = decorator.decorate(() -> {
            Runnable action = work.get();
            if (action != null) {
                action.run();
            }
        });
        return new Captured() {
            @Override
            public Scope apply() {
                throw new UnsupportedOperationException("a TaskDecorator's context only wraps work: use run(Runnable)");
            }

            @Override
            public void run(Runnable action) {
                Runnable outer = work.get(); // work run from inside other work of the batch, on this thread
                work.set(action);
                try {
                    decorated.run();
                } finally {
                    if (outer == null) {
                        work.remove();
                    } else {
                        work.set(outer);
                    }
                }
            }
        };
    }

    @Override
    public String toString() {
        return "TaskDecoratorPropagator[" + decorator + "]";
    }
}
