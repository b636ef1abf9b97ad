-- Every order a voucher has in the database, whatever its status: what a rebuild of its Redis state counts
-- (live orders hold a unit; a cancelled one holds it until its unit is returned) and schedules for expiry again
-- (the unpaid ones, with their window).
SELECT order_id, user_id, status, pay_before
FROM orders
WHERE voucher_id = :#voucherId
