SELECT id, title, stock, begin_at, end_at
FROM vouchers
ORDER BY id
