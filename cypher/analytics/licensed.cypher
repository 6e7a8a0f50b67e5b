// Whether the server's GDS has an Enterprise licence: without one (GDS Community, as on the
// managed server) an algorithm runs on at most 4 threads and refuses a higher concurrency.
RETURN gds.isLicensed() AS licensed
