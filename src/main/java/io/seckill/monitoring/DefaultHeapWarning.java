package io.seckill.monitoring;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * One WARN line at start when the service runs on the JVM's default heap: no heap option among the JVM's (the
 * command line, an argument file, {@code JDK_JAVA_OPTIONS}, {@code JAVA_TOOL_OPTIONS}), so the heap is a quarter
 * of the machine's memory, sized for nothing this service does, and none of the other recommended options is
 * likely there either. They are in {@code jvm.options}: {@code java @jvm.options -jar …}.
 */
@Component
class DefaultHeapWarning implements ApplicationListener<ApplicationStartedEvent> {

    private static final Logger log = LoggerFactory.getLogger(DefaultHeapWarning.class);
    private static final List<String> HEAP_OPTIONS = List.of("-Xmx", "-XX:MaxHeapSize=", "-XX:MaxRAMPercentage=",
            "-XX:MaxRAMFraction=", "-XX:MaxRAM=");

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        if (onDefaultHeap(ManagementFactory.getRuntimeMXBean().getInputArguments())) {
            log.warn("Running on the JVM's default heap ({} MB): start the service with the recommended options, "
                    + "java @jvm.options -jar … (docs/production.md, \"JVM options\")",
                    Runtime.getRuntime().maxMemory() / (1024 * 1024));
        }
    }

    /** Whether none of these JVM options sets the heap's maximum. */
    static boolean onDefaultHeap(List<String> jvmOptions) {
        return jvmOptions.stream().noneMatch(option -> HEAP_OPTIONS.stream().anyMatch(option::startsWith));
    }
}
