package io.seckill.support;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.h2.store.fs.FileBase;
import org.h2.store.fs.FilePath;
import org.h2.store.fs.FilePathWrapper;

/**
 * A disk that fills up under an H2 file and is freed again: H2's file system prefix {@value #PREFIX} (as its own
 * {@code split:} or {@code retry:} wrappers), over the real files, whose writes fail as a full disk's do ("No space
 * left on device", an IOException from the channel) while {@link #fill} is on. Reads go on. H2 meets it where it
 * would meet the real one: writing a commit's chunk. It also keeps count, file by file, of the bytes written and not
 * yet forced to the device ({@link FileChannel#force}), which a power cut would take and which the operating system
 * writes out when it chooses.
 */
public final class FullDisk extends FilePathWrapper {

    public static final String PREFIX = "fulldisk:";
    private static volatile boolean full;
    /** By the real file's path: the bytes written to it since it was last forced to the device. */
    private static final Map<String, Long> notForced = new ConcurrentHashMap<>();
    /** By the real file's path: how many times it was forced to the device. */
    private static final Map<String, Long> forces = new ConcurrentHashMap<>();

    static {
        FilePath.register(new FullDisk());
    }

    /** {@code jdbc:h2:fulldisk:<file>}: the H2 file {@code file} on this disk. */
    public static String h2Url(String file, String settings) {
        return "jdbc:h2:" + PREFIX + file + settings;
    }

    /** From now on every write fails, until {@link #free}. */
    public static void fill() {
        full = true;
    }

    public static void free() {
        full = false;
    }

    /** The bytes written to FILE (its real path) on this disk and not forced to the device since. */
    public static long bytesNotForced(Path file) {
        return notForced.getOrDefault(file.toString(), 0L);
    }

    /** How many times FILE (its real path) on this disk was forced to the device. */
    public static long forces(Path file) {
        return forces.getOrDefault(file.toString(), 0L);
    }

    @Override
    public String getScheme() {
        return "fulldisk";
    }

    @Override
    public FileChannel open(String mode) throws IOException {
        return new FullDiskChannel(getBase().open(mode), getBase().toString());
    }

    private static void refuseWhileFull() throws IOException {
        if (full) {
            throw new IOException("No space left on device");
        }
    }

    private static final class FullDiskChannel extends FileBase {

        private final FileChannel file;
        private final String path;

        FullDiskChannel(FileChannel file, String path) {
            this.file = file;
            this.path = path;
        }

        private int written(int bytes) {
            notForced.merge(path, (long) bytes, Long::sum);
            return bytes;
        }

        @Override
        public int read(ByteBuffer destination) throws IOException {
            return file.read(destination);
        }

        @Override
        public synchronized int read(ByteBuffer destination, long position) throws IOException {
            return file.read(destination, position);
        }

        @Override
        public int write(ByteBuffer source) throws IOException {
            refuseWhileFull();
            return written(file.write(source));
        }

        @Override
        public synchronized int write(ByteBuffer source, long position) throws IOException {
            refuseWhileFull();
            return written(file.write(source, position));
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public FileChannel position(long position) throws IOException {
            file.position(position);
            return this;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            refuseWhileFull();
            file.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            // What was written before the force is on the device after it; what is written meanwhile may not be.
            long before = notForced.getOrDefault(path, 0L);
            file.force(metaData);
            notForced.merge(path, -before, Long::sum);
            forces.merge(path, 1L, Long::sum);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return file.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            file.close();
        }
    }
}
