package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded Redis's password file: made once, for the service's user only, taken again on every start. */
class EmbeddedRedisPasswordTests {

    @TempDir
    Path dataDir;

    @Test
    void theFirstStartMakesARandomPasswordOnlyItsOwnerCanRead() throws Exception {
        String password = EmbeddedRedisPassword.readOrCreate(dataDir);

        Path file = dataDir.resolve("password");
        assertThat(password).hasSize(64).isHexadecimal();
        assertThat(Files.readString(file).strip()).isEqualTo(password);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(EmbeddedRedisPassword.readOrCreate(Files.createTempDirectory(dataDir, "other")))
                .isNotEqualTo(password);
    }

    @Test
    void laterStartsTakeTheSamePasswordAndTakeBackWhatOthersCouldRead() throws Exception {
        String password = EmbeddedRedisPassword.readOrCreate(dataDir);
        Path file = dataDir.resolve("password");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThat(EmbeddedRedisPassword.readOrCreate(dataDir)).isEqualTo(password);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void anEmptyFileLeftByAStartThatDiedGetsAPassword() throws Exception {
        Files.createFile(dataDir.resolve("password"));

        assertThat(EmbeddedRedisPassword.readOrCreate(dataDir)).hasSize(64);
        assertThat(dataDir.resolve("password")).content().hasSize(65);
    }

    @Test
    void theAclRuleCarriesTheSha256OfThePasswordNotThePassword() {
        // echo -n secret | sha256sum
        assertThat(EmbeddedRedisPassword.aclHash("secret"))
                .isEqualTo("#2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b");
    }
}
