INSERT INTO vouchers (title, stock, begin_at, end_at, created_at)
VALUES (:#title, :#stock, :#beginAt, :#endAt, :#createdAt)
