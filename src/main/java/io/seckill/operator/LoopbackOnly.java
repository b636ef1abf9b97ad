package io.seckill.operator;

import io.seckill.api.HttpRequests;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import org.apache.camel.Exchange;
import org.springframework.stereotype.Component;

/**
 * What a verb that needs a credential accepts while none is configured, as Redis's protected mode does: requests from
 * this host only. The peer is the connection's own (never {@code X-Forwarded-For}), and a loopback peer that forwards
 * a request for someone else ({@code X-Forwarded-For} or {@code Forwarded}) is a proxy on this host, not a local
 * user: without that, a reverse proxy on the same machine would open the verb to everyone behind it.
 */
@Component
public class LoopbackOnly {

    /**
     * @param refusal the detail of the 403, naming the setting that would let other hosts in
     * @throws Refusal 403 {@link Reason#LOOPBACK_ONLY} for a request from another host
     */
    public void require(Exchange exchange, String refusal) {
        boolean local = HttpRequests.peer(exchange).isLoopbackAddress()
                && HttpRequests.headers(exchange, "X-Forwarded-For").isEmpty()
                && HttpRequests.headers(exchange, "Forwarded").isEmpty();
        if (!local) {
            throw new Refusal(Reason.LOOPBACK_ONLY, refusal);
        }
    }
}
