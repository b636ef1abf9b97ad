-- A voucher whose orders the self warm-up accepts, in the warm-up's own schema (io.seckill.warmup.WarmUpWriter), never
-- in the service's: the units of the warm-up's orders, taken by the order writer's own statements (sql/take-units.sql).
INSERT INTO vouchers (id, title, stock, begin_at, created_at)
VALUES (:#id, 'warm-up', :#stock, :#beginAt, :#beginAt)
