SELECT id, title, stock, begin_at, end_at, buckets
FROM vouchers
WHERE id = :#id
