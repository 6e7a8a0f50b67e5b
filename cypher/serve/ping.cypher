// Liveness of the database behind `argkb serve` (GET /healthz).
RETURN 1 AS ok
