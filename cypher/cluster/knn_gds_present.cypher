// Whether the server has GDS K-Nearest Neighbors (argkb.cluster.knn, method gds).
SHOW PROCEDURES YIELD name
WHERE name = 'gds.knn.stream'
RETURN count(*) > 0 AS present
