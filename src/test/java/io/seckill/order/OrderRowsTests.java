package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.junit.jupiter.api.Test;

/** Stream entries into the orders the writer inserts, and those into the order the API and the events show. */
class OrderRowsTests {

    private static final Map<String, String> FIELDS = Map.of("orderId", "117589295186841600", "voucherId", "3",
            "userId", "7", "acceptedAt", "1795260808156", "payBefore", "1795261708156");

    private final OrderRows rows = new OrderRows();

    @Test
    void entryBecomesTheParametersOfInsertOrder() {
        OrderRow row = rows.fromEntry(entry(FIELDS));

        assertThat(row).isEqualTo(new OrderRow(117589295186841600L, 3, 7, 1795260808156L, 1795261708156L));
        assertThat(row.parameter("createdAt"))
                .isEqualTo(OffsetDateTime.ofInstant(Instant.ofEpochMilli(1795260808156L), ZoneOffset.UTC));
        assertThat(row.parameter("payBefore"))
                .isEqualTo(OffsetDateTime.ofInstant(Instant.ofEpochMilli(1795261708156L), ZoneOffset.UTC));
        assertThat(rows.fromEntries(List.of(entry(FIELDS), entry(FIELDS)))).containsExactly(row, row);
    }

    @Test
    void entryFromBeforePaymentWindowsHasNoPayBefore() {
        Map<String, String> old = new HashMap<>(FIELDS);
        old.remove("payBefore");

        assertThat(rows.fromEntry(entry(old)).parameter("payBefore")).isNull();
    }

    @Test
    void writtenRowIsTheOrderAsTheApiShowsIt() {
        assertThat(rows.fromEntry(entry(FIELDS)).written()).isEqualTo(
                new OrderView("117589295186841600", 3, 7, "CREATED", Instant.ofEpochMilli(1795260808156L),
                        Instant.ofEpochMilli(1795261708156L)));
    }

    @Test
    void entryMissingAFieldOrWithABadNumberIsMalformed() {
        for (String field : FIELDS.keySet()) {
            Map<String, String> missing = new HashMap<>(FIELDS);
            missing.remove(field);
            if (!field.equals("payBefore")) {
                assertThatThrownBy(() -> rows.fromEntry(entry(missing))).isInstanceOf(MalformedOrderException.class)
                        .hasMessage("entry 1-0 has no " + field);
            }
            for (String bad : new String[] {"", "abc", "0", "-1", "1.5"}) {
                Map<String, String> wrong = new HashMap<>(FIELDS);
                wrong.put(field, bad);
                assertThatThrownBy(() -> rows.fromEntry(entry(wrong))).isInstanceOf(MalformedOrderException.class)
                        .hasMessage("entry 1-0 has a bad " + field + ": '" + bad + "'");
            }
        }
    }

    private static StreamEntry entry(Map<String, String> fields) {
        return new StreamEntry("seckill:{s0}:orders", "1-0", fields);
    }
}
