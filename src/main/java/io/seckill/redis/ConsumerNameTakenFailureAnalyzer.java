package io.seckill.redis;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Tells an operator, instead of a stack trace, why the instance did not start and which setting to change. */
class ConsumerNameTakenFailureAnalyzer extends AbstractFailureAnalyzer<ConsumerNameTakenException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConsumerNameTakenException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Set seckill.stream.consumer-name (SECKILL_STREAM_CONSUMER_NAME) to a name no other running "
                        + "instance uses, and keep it across restarts of this instance. The default, "
                        + "${HOSTNAME:seckill}-${server.port}, is the same for every instance started with "
                        + "server.port=0, and for instances on one port on hosts where HOSTNAME is not set.",
                cause);
    }
}
