INSERT INTO vouchers (title, stock, begin_at, end_at, created_at, buckets)
VALUES (:#title, :#stock, :#beginAt, :#endAt, :#createdAt, :#buckets)
