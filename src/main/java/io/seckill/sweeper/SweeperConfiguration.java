package io.seckill.sweeper;

import io.seckill.lua.LuaScripts;
import io.seckill.stream.InFlightEntries;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The entries the readers and the sweeper hold are kept fresh within the sweeper's min-idle time, so that no sweeper
 * claims them from a live holder: the stream component is told that time here, and knows nothing of the sweeper.
 */
@Configuration(proxyBeanMethods = false)
class SweeperConfiguration {

    @Bean
    InFlightEntries inFlightEntries(LuaScripts scripts, SweeperProperties sweeper) {
        return new InFlightEntries(scripts, Duration.ofMillis(sweeper.minIdleMillis()));
    }
}
