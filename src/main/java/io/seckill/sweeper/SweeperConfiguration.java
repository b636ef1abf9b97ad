package io.seckill.sweeper;

import java.time.Duration;
import org.apache.camel.component.redis.stream.AckEntriesScript;
import org.apache.camel.component.redis.stream.InFlightEntries;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The sweeper handles the entries it claims as the {@code redis-stream:} consumer handles the ones it reads: keeps
 * them fresh while it writes them, within its own min-idle time, and acknowledges and trims them once written.
 */
@Configuration(proxyBeanMethods = false)
class SweeperConfiguration {

    @Bean(initMethod = "start")
    InFlightEntries inFlightEntries(StringRedisTemplate redis, SweeperProperties sweeper) {
        return new InFlightEntries(redis, Duration.ofMillis(sweeper.keepAliveMillis()));
    }

    @Bean
    AckEntriesScript ackEntriesScript(StringRedisTemplate redis) {
        return new AckEntriesScript(redis);
    }
}
