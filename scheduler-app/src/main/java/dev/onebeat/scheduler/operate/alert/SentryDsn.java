package dev.onebeat.scheduler.operate.alert;

import java.net.URI;

/**
 * A Sentry DSN, {@code https://<public key>@<host>/<project id>}, and the check-in address it gives a monitor:
 * {@code https://<host>/api/<project id>/cron/<monitor slug>/<public key>/}, which takes {@code ?status=ok},
 * {@code error} or {@code missed}.
 *
 * @param base {@code https://<host>} (with a port, if the DSN has one)
 */
record SentryDsn(String base, String publicKey, String project) {

    static SentryDsn parse(String dsn) {
        String where = "onebeat.alerts.sentry.dsn";
        URI uri = AlertProperties.httpUrl(where, dsn);
        String key = uri.getUserInfo() == null ? "" : uri.getUserInfo().split(":", 2)[0];
        String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("^/+|/+$", "");
        String project = path.contains("/") ? path.substring(path.lastIndexOf('/') + 1) : path;
        if (key.isEmpty() || !project.matches("\\d+")) {
            throw new IllegalArgumentException(where + ": '" + dsn.replaceAll("//[^@/]*@", "//…@")
                    + "' is not a DSN of the form https://<public key>@<host>/<project id>");
        }
        String prefix = path.contains("/") ? "/" + path.substring(0, path.lastIndexOf('/')) : "";
        String base = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + prefix;
        return new SentryDsn(base, key, project);
    }

    /** @return the monitor's check-in address, without the status */
    String checkIn(String monitorSlug) {
        return base + "/api/" + project + "/cron/" + monitorSlug + "/" + publicKey + "/";
    }
}
