package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.sql.SQLRecoverableException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.camel.RuntimeCamelException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

/**
 * Which failures are a Redis that cannot be used, as the Redis client (Lettuce), Spring Data Redis and futures
 * report them, each wrapped the way it reaches the API's error handling.
 */
class RedisOutageTests {

    @Test
    void aCommandRejectedWhileDisconnectedNeverRan() {
        // Spring's translation of REJECT_COMMANDS, inside Camel's wrapper of a bean's exception.
        Throwable rejected = new RuntimeCamelException(new RedisSystemException("Redis exception",
                new RedisException("Currently not connected. Commands are rejected.")));
        assertThat(RedisOutage.behind(rejected)).contains(RedisOutage.UNREACHABLE);
        // The same through an asynchronous command's future.
        assertThat(RedisOutage.behind(new CompletionException(
                new RedisException("Currently not connected. Commands are rejected.")))).contains(RedisOutage.UNREACHABLE);
    }

    @Test
    void aRedisThatCannotBeConnectedToOrIsLoadingItsDataIsUnreachable() {
        assertThat(RedisOutage.behind(new RedisConnectionFailureException("Unable to connect to Redis",
                new RedisConnectionException("Unable to connect", new ConnectException("Connection refused")))))
                .contains(RedisOutage.UNREACHABLE);
        assertThat(RedisOutage.behind(new RedisSystemException("Error in execution",
                new RedisLoadingException("LOADING Redis is loading the dataset in memory"))))
                .contains(RedisOutage.UNREACHABLE);
        assertThat(RedisOutage.behind(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException("CLUSTERDOWN The cluster is down"))))
                .contains(RedisOutage.UNREACHABLE);
    }

    @Test
    void aCommandLeftWithoutAnAnswerMayHaveRun() {
        assertThat(RedisOutage.behind(new QueryTimeoutException("Redis command timed out",
                new RedisCommandTimeoutException("Command timed out after 5 second(s)"))))
                .contains(RedisOutage.NO_ANSWER);
        // A wrapper of the command Lettuce failed when the connection broke under it.
        assertThat(RedisOutage.behind(new RedisException("Unexpected exception while processing command",
                new ExecutionException(new SocketException("Connection reset")))))
                .contains(RedisOutage.NO_ANSWER);
        assertThat(RedisOutage.behind(new RedisSystemException("Unknown Lettuce exception",
                new IOException("Connection reset by peer")))).contains(RedisOutage.NO_ANSWER);
    }

    @Test
    void aCommandDroppedWithItsConnectionMayHaveRun() {
        // Lettuce fails every command it held when the connection went with these, those already written included.
        assertThat(RedisOutage.behind(new RedisSystemException("Redis exception",
                new RedisException("Connection disconnected")))).contains(RedisOutage.NO_ANSWER);
        assertThat(RedisOutage.behind(new CompletionException(new RedisException("Connection closed"))))
                .contains(RedisOutage.NO_ANSWER);
    }

    @Test
    void otherFailuresAreNotARedisOutage() {
        // A command Redis refused for what it is: a bug of ours, not an outage.
        assertThat(RedisOutage.behind(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException("ERR wrong number of arguments")))).isEmpty();
        assertThat(RedisOutage.behind(new RedisException("Connection reset? no: some other message"))).isEmpty();
        // The database's broken connection is not Redis'.
        assertThat(RedisOutage.behind(new DataAccessResourceFailureException("JDBC",
                new SQLRecoverableException("I/O error", new SocketException("Connection reset"))))).isEmpty();
        assertThat(RedisOutage.behind(new IllegalStateException("boom"))).isEmpty();
        assertThat(RedisOutage.behind(null)).isEmpty();
    }
}
