SELECT id, title, stock, begin_at, end_at
FROM vouchers
WHERE id = :#id
