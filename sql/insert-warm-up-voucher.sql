-- The self warm-up's voucher, in the warm-up's own schema (io.seckill.warmup.WarmUpWriter), never in the service's:
-- the unit of every order the warm-up accepts, taken by the order writer's own statements (sql/take-units.sql).
INSERT INTO vouchers (id, title, stock, begin_at, created_at)
VALUES (:#id, 'warm-up', :#stock, :#beginAt, :#beginAt)
