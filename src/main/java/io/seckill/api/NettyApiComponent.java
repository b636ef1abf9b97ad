package io.seckill.api;

import java.util.HashMap;
import java.util.Map;
import org.apache.camel.component.netty.http.HttpServerConsumerChannelFactory;
import org.apache.camel.component.netty.http.NettyHttpComponent;
import org.apache.camel.support.service.ServiceHelper;

/**
 * Camel's netty-http component, the API's engine, with {@link NettyApiMultiplexer} handing the requests of each port
 * to their routes. Everything else is Camel's.
 */
final class NettyApiComponent extends NettyHttpComponent {

    private final Map<Integer, NettyApiMultiplexer> multiplexers = new HashMap<>();

    @Override
    public synchronized HttpServerConsumerChannelFactory getMultiplexChannelHandler(int port) {
        return multiplexers.computeIfAbsent(port, p -> {
            NettyApiMultiplexer multiplexer = new NettyApiMultiplexer();
            multiplexer.init(p);
            return multiplexer;
        });
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop();
        synchronized (this) {
            ServiceHelper.stopService(multiplexers.values());
            multiplexers.clear();
        }
    }
}
