-- How many stock buckets a voucher's stock is split into (docs/buckets.md): the shard of each order's bucket.
SELECT buckets
FROM vouchers
WHERE id = :#voucherId
