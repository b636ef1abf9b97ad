package io.seckill.order;

import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;

/**
 * The announcements of the scripts that put units back on sale ({@code returnUnit-3.lua}, {@code
 * rebuildVoucher-2.lua}: {@code PUBLISH <channel> <voucherId>}, inside the script, so no unit comes back
 * unannounced): the voucher is forgotten by this instance's {@link SaleView} and its next order goes to Redis.
 */
public class SaleViewMessages implements MessageListener {

    private static final Logger log = LoggerFactory.getLogger(SaleViewMessages.class);

    private final SaleView view;

    public SaleViewMessages(SaleView view) {
        this.view = view;
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        String body = new String(message.getBody(), StandardCharsets.US_ASCII);
        try {
            view.changed(Long.parseLong(body));
        } catch (NumberFormatException e) {
            log.warn("Ignored a sale-view message that names no voucher: {}", body);
        }
    }
}
