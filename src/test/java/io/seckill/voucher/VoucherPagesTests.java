package io.seckill.voucher;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.config.SqlStatements;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The statements the Redis state check pages with ({@code sql/select-vouchers-on-sale.sql},
 * {@code sql/select-voucher-sold.sql}), on an H2 database of their own with the service's schema.
 */
class VoucherPagesTests {

    private static final Instant NOW = Instant.now();
    private static final Instant ENDED_AFTER = NOW.minus(Duration.ofMinutes(17));

    private VoucherRepository vouchers;
    private JdbcClient jdbc;

    @BeforeEach
    void database() {
        JdbcDataSource database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ResourceLoader resources = new DefaultResourceLoader();
        new ResourceDatabasePopulator(resources.getResource("classpath:sql/schema.sql")).execute(database);
        jdbc = JdbcClient.create(database);
        vouchers = new VoucherRepository(jdbc, new SqlStatements(resources));
    }

    @Test
    void pagesWalkTheVouchersOnSaleAndThoseEndedWithinTheGraceInIdOrder() {
        List<Long> surveyed = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            surveyed.add(insert(null));                                   // never ends
            insert(NOW.minus(Duration.ofDays(1)));                        // ended long ago: left out
            surveyed.add(insert(NOW.plus(Duration.ofHours(1))));          // on sale
            surveyed.add(insert(NOW.minus(Duration.ofMinutes(5))));       // ended within the grace
        }

        List<Long> seen = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        List<Voucher> page = List.of();
        do {
            long afterId = page.isEmpty() ? 0 : page.get(page.size() - 1).id();
            page = vouchers.onSale(afterId, ENDED_AFTER, 5);
            pageSizes.add(page.size());
            page.forEach(voucher -> seen.add(voucher.id()));
        } while (page.size() == 5);

        assertThat(seen).containsExactlyElementsOf(surveyed);
        assertThat(pageSizes).containsExactly(5, 5, 2);
    }

    @Test
    void soldIsReadForTheIdsOfOnePage() {
        long first = insert(null);
        long second = insert(null);
        long third = insert(null);
        jdbc.sql("UPDATE vouchers SET sold = id").update();

        assertThat(vouchers.sold(first, second)).containsOnlyKeys(first, second).containsEntry(second, second);
        assertThat(vouchers.sold(third, third)).containsOnlyKeys(third);
    }

    private long insert(Instant endAt) {
        return vouchers.insert(new VoucherRequest("voucher", 5, NOW.minus(Duration.ofDays(2)), endAt)).id();
    }
}
