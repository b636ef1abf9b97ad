package io.seckill.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * bench/reference/ReferenceIntake.java, the plain Spring MVC controller the intake is measured against: compiled
 * against the service jar's own libraries and started with the same JVM options against the service's Redis.
 */
final class ReferenceController {

    /**
     * The libraries a hand-written controller would have: Spring MVC, Spring Data Redis and Lettuce from the service's
     * own jar, and nothing else (no Camel, no database, no actuator).
     */
    private static final Pattern LIBRARIES = Pattern.compile("(spring-aop-|spring-beans-|spring-boot-3|"
            + "spring-boot-autoconfigure-|spring-context-6|spring-core-|spring-data-commons-|spring-data-keyvalue-|"
            + "spring-data-redis-|spring-expression-|spring-jcl-|spring-oxm-|spring-tx-|spring-web-|spring-webmvc-|"
            + "tomcat-embed-|jackson-annotations-|jackson-core-|jackson-databind-|jackson-datatype-jdk8-|"
            + "jackson-datatype-jsr310-|jackson-module-parameter-names-|lettuce-core-|netty-|reactor-core-|"
            + "reactive-streams-|micrometer-commons-|micrometer-observation-|slf4j-api-|logback-|jul-to-slf4j-|log4j-|"
            + "snakeyaml-2|jakarta\\.annotation-api-|redis-authx-).*\\.jar");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final String classpath;

    private ReferenceController(String classpath) {
        this.classpath = classpath;
    }

    /** Unpacks the service jar's BOOT-INF/lib into DIRECTORY and returns that folder. */
    static Path unpackLibraries(Path jar, Path directory) throws IOException {
        Path lib = directory.resolve("BOOT-INF/lib");
        Files.createDirectories(lib);
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                String name = entry.getName();
                if (name.startsWith("BOOT-INF/lib/") && !entry.isDirectory()) {
                    Files.copy(zip, lib.resolve(name.substring("BOOT-INF/lib/".length())),
                            StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return lib;
    }

    /** Compiles SOURCE into OUTPUT against the chosen libraries in LIB (the service jar's, unpacked). */
    static ReferenceController compile(Path source, Path lib, Path output) throws IOException {
        List<String> entries = new ArrayList<>(List.of(output.toString()));
        try (Stream<Path> jars = Files.list(lib)) {
            jars.filter(jar -> LIBRARIES.matcher(jar.getFileName().toString()).matches()).sorted()
                    .forEach(jar -> entries.add(jar.toString()));
        }
        String classpath = String.join(":", entries);
        Files.createDirectories(output);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IOException("no Java compiler: the harness needs a JDK, not a JRE");
        }
        int status = javac.run(InputStream.nullInputStream(), System.out, System.err, "-parameters", "-d",
                output.toString(), "-cp", classpath, source.toString());
        if (status != 0) {
            throw new IOException("the reference controller did not compile: " + source);
        }
        return new ReferenceController(classpath);
    }

    /** A started controller: its base address, {@code http://127.0.0.1:PORT}, and its process. */
    record Running(String base, ChildProcesses.Child process) {
        void stop() {
            process.stop();
        }
    }

    /** Starts the controller against the service's Redis; returns once Spring says it started. */
    Running start(ChildProcesses processes, List<String> javaOptions, ServiceProcess service, Path script, Path log)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(javaOptions);
        command.addAll(List.of("-cp", classpath, "reference.ReferenceIntake", "--server.port=0",
                "--spring.main.banner-mode=off", "--spring.data.redis.port=" + service.redisPort(),
                "--reference.script=" + script.toAbsolutePath(),
                // the bench's payment window: the controller's orders must not fall due (and be cancelled by the
                // service beside it) while later legs measure
                "--reference.payment-timeout-millis=" + ServiceLeg.PAYMENT_TIMEOUT_MILLIS));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SPRING_DATA_REDIS_PASSWORD",
                service.redisPassword() == null ? "" : service.redisPassword());
        ChildProcesses.Child process = processes.start(null, log, STOP_GRACE, builder);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        process.awaitLine(ServiceProcess.STARTED, deadline, "the reference");
        String base = "http://127.0.0.1:"
                + process.awaitLine(ServiceProcess.TOMCAT_PORT, deadline, "the reference").group(1);
        ChildProcesses.say("reference pid " + process.pid() + " on " + base);
        return new Running(base, process);
    }
}
