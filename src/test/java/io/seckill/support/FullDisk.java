package io.seckill.support;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import org.h2.store.fs.FileBase;
import org.h2.store.fs.FilePath;
import org.h2.store.fs.FilePathWrapper;

/**
 * A disk that fills up under an H2 file and is freed again: H2's file system prefix {@value #PREFIX} (as its own
 * {@code split:} or {@code retry:} wrappers), over the real files, whose writes fail as a full disk's do ("No space
 * left on device", an IOException from the channel) while {@link #fill} is on. Reads go on. H2 meets it where it
 * would meet the real one: writing a commit's chunk.
 */
public final class FullDisk extends FilePathWrapper {

    public static final String PREFIX = "fulldisk:";
    private static volatile boolean full;

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

    @Override
    public String getScheme() {
        return "fulldisk";
    }

    @Override
    public FileChannel open(String mode) throws IOException {
        return new FullDiskChannel(getBase().open(mode));
    }

    private static void refuseWhileFull() throws IOException {
        if (full) {
            throw new IOException("No space left on device");
        }
    }

    private static final class FullDiskChannel extends FileBase {

        private final FileChannel file;

        FullDiskChannel(FileChannel file) {
            this.file = file;
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
            return file.write(source);
        }

        @Override
        public synchronized int write(ByteBuffer source, long position) throws IOException {
            refuseWhileFull();
            return file.write(source, position);
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
            file.force(metaData);
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
