-- A page of the vouchers the Redis state check surveys, in id order after :#afterId: those whose sale has not
-- ended, or ended after :#endedAfter (their unpaid orders are still being cancelled, each unit going back to
-- Redis). A voucher ended long ago has nothing left to sell or return, however many of them the table holds.
SELECT id, title, stock, begin_at, end_at, buckets
FROM vouchers
WHERE id > :#afterId
  AND (end_at IS NULL OR end_at > :#endedAfter)
ORDER BY id
LIMIT :#pageSize
