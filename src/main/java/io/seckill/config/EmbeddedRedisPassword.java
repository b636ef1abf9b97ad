package io.seckill.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * The embedded Redis's password: random, made on its first start and kept beside the data it guards
 * ({@code <data-dir>/password}, readable and writable by the service's user only), so that every later start and
 * every restart by the supervisor uses the same one, and an operator's {@code redis-cli} finds it there.
 */
final class EmbeddedRedisPassword {

    static final String FILE_NAME = "password";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final int RANDOM_BYTES = 32;

    private EmbeddedRedisPassword() {}

    /** The password in {@code dataDir}, made (and the file written) when there is none yet. */
    static String readOrCreate(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        if (Files.exists(file)) {
            // Whatever a copy or a restore left: the password is the service's user's alone.
            Files.setPosixFilePermissions(file, OWNER_ONLY);
            String password = Files.readString(file, StandardCharsets.US_ASCII).strip();
            // Empty only when a start died between creating and writing it; the data does not depend on it.
            if (!password.isEmpty()) {
                return password;
            }
        }
        byte[] random = new byte[RANDOM_BYTES];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        // Written aside with its permissions from the start, then renamed: never readable by others, never half.
        FileAttribute<Set<PosixFilePermission>> ownerOnly = PosixFilePermissions.asFileAttribute(OWNER_ONLY);
        Path written = Files.createTempFile(dataDir, FILE_NAME, ".tmp", ownerOnly);
        Files.writeString(written, password + "\n", StandardCharsets.US_ASCII);
        Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
        return password;
    }

    /** The form of an ACL rule that keeps the password out of redis-server's command line ({@code #<sha256>}). */
    static String aclHash(String password) {
        try {
            return "#" + HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }
}
