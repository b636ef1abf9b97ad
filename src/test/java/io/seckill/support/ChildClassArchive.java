package io.seckill.support;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.springframework.util.FileSystemUtils;

/**
 * A class-data-sharing archive for the service's child JVMs (the JDK's dynamic AppCDS archive): a child started with
 * it maps the classes of Spring, Camel, Netty, Lettuce and H2 from the archive instead of reading and verifying them
 * again, and is ready in about two thirds of the time (4.4–4.8 s against 6.6–7.8 s for one child alone on 2 cores).
 * The crash and multi-instance tests start about twenty children, each while the test waits.
 *
 * <p>One archive per main code, class path and JDK (a digest of the three), made once by a training child that starts
 * on the embedded defaults, becomes ready and stops (the JVM writes the archive as it exits), and kept under
 * {@code target/} for the next runs. CDS takes classes from jars only, so the main classes go into a jar of their own
 * beside the archive. If any of it fails, the children start without an archive: it saves time and changes nothing
 * they do (the JVM checks the archive against its class path and ignores one that does not match).
 */
final class ChildClassArchive {

    private static final Path ROOT = Path.of("target", "service-processes", "class-archive").toAbsolutePath();
    private static final Duration TRAINING = Duration.ofSeconds(180);

    private static ChildClassArchive instance;

    private final List<String> classPath;
    private final List<String> jvmOptions;

    private ChildClassArchive(List<String> classPath, List<String> jvmOptions) {
        this.classPath = classPath;
        this.jvmOptions = jvmOptions;
    }

    /** The archive for this JVM's main class path, made on first use. */
    static synchronized ChildClassArchive get(List<String> mainClassPath, List<String> trainingJvmOptions) {
        if (instance == null) {
            instance = make(mainClassPath, trainingJvmOptions);
        }
        return instance;
    }

    /** The child's class path: jars only, the main classes in one of their own. */
    List<String> classPath() {
        return classPath;
    }

    /** {@code -XX:SharedArchiveFile=…}, or nothing when no archive could be made. */
    List<String> jvmOptions() {
        return jvmOptions;
    }

    private static ChildClassArchive make(List<String> mainClassPath, List<String> trainingJvmOptions) {
        try {
            Path folder = ROOT.resolve(digest(mainClassPath));
            Files.createDirectories(folder);
            // The integration tests' other JVM waits here while this one trains, rather than training too.
            try (FileChannel lock = FileChannel.open(folder.resolve("lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock held = lock.lock()) {
                List<String> jars = jarsOnly(mainClassPath, folder);
                Path archive = folder.resolve("service.jsa");
                if (!Files.isRegularFile(archive)) {
                    deleteOthers(folder);
                    train(jars, trainingJvmOptions, folder, archive);
                }
                return new ChildClassArchive(jars, List.of("-XX:SharedArchiveFile=" + archive));
            }
        } catch (IOException | RuntimeException e) {
            System.out.println("Child JVMs start without a class archive: " + e);
            return new ChildClassArchive(mainClassPath, List.of());
        }
    }

    /** A child on the embedded defaults, ready, then stopped: its JVM writes what it loaded as it exits. */
    private static void train(List<String> classPath, List<String> jvmOptions, Path folder, Path archive)
            throws IOException {
        long started = System.nanoTime();
        Path written = folder.resolve("service.jsa." + ProcessHandle.current().pid());
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-XX:ArchiveClassesAtExit=" + written);
        try (ServiceProcess training = ServiceProcess.startOn(classPath, "class-archive-training",
                folder.resolve("training"), Map.of(), options)) {
            training.awaitHealthy(TRAINING);
            if (!training.stop(TRAINING)) {
                throw new IllegalStateException("the training child did not stop:\n" + training.logTail(20));
            }
        }
        if (!Files.isRegularFile(written)) {
            throw new IllegalStateException("the training child wrote no archive");
        }
        Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE);
        System.out.printf("Child JVMs' class archive made in %d ms: %s%n",
                Duration.ofNanos(System.nanoTime() - started).toMillis(), archive);
    }

    /** The class path with each folder (the main classes) replaced by a jar of its files. */
    private static List<String> jarsOnly(List<String> classPath, Path folder) throws IOException {
        List<String> jars = new ArrayList<>();
        for (String entry : classPath) {
            Path path = Path.of(entry);
            if (!Files.isDirectory(path)) {
                jars.add(entry);
                continue;
            }
            Path jar = folder.resolve(path.getFileName() + ".jar");
            if (!Files.isRegularFile(jar)) {
                writeJar(path, jar);
            }
            jars.add(jar.toString());
        }
        return jars;
    }

    private static void writeJar(Path classes, Path jar) throws IOException {
        Files.createDirectories(jar.getParent());
        Path written = jar.resolveSibling(jar.getFileName() + "." + ProcessHandle.current().pid());
        try (OutputStream file = Files.newOutputStream(written); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> files = Files.walk(classes)) {
            // Folders too: Spring's component scan finds a package through its folder's entry.
            for (Path path : files.filter(path -> !path.equals(classes)).sorted().toList()) {
                String name = classes.relativize(path).toString().replace(File.separatorChar, '/');
                boolean folder = Files.isDirectory(path);
                out.putNextEntry(new JarEntry(folder ? name + "/" : name));
                if (!folder) {
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        }
        Files.move(written, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The JDK, each jar's path, size and time, and every main class file's name and bytes. */
    private static String digest(List<String> classPath) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        digest.update((System.getProperty("java.home") + System.getProperty("java.vm.version"))
                .getBytes(StandardCharsets.UTF_8));
        for (String entry : classPath) {
            Path path = Path.of(entry);
            digest.update(entry.getBytes(StandardCharsets.UTF_8));
            if (!Files.isDirectory(path)) {
                digest.update((Files.size(path) + ":" + Files.getLastModifiedTime(path).toMillis())
                        .getBytes(StandardCharsets.UTF_8));
                continue;
            }
            try (Stream<Path> files = Files.walk(path)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    digest.update(path.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                    digest.update(Files.readAllBytes(file));
                }
            }
        }
        return HexFormat.of().formatHex(digest.digest(), 0, 8);
    }

    /** Archives of earlier builds' code (about 100 MB each): a build only ever starts children of its own. */
    private static void deleteOthers(Path keep) throws IOException {
        try (Stream<Path> folders = Files.list(ROOT)) {
            for (Path folder : folders.filter(folder -> !folder.equals(keep)).toList()) {
                FileSystemUtils.deleteRecursively(folder);
            }
        }
    }
}
