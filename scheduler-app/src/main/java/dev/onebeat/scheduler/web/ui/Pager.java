package dev.onebeat.scheduler.web.ui;

import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriComponents;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Links to the neighbouring pages of a list: the current request's URL, filters kept, with another
 * {@code page} parameter.
 *
 * @param number this page, from 0
 * @param previous link to the page before, null on the first
 * @param next link to the page after, null on the last
 */
record Pager(int number, String previous, String next) {

    /** Beyond this page the offset of a 50-row page would overflow an int; nobody pages that far. */
    static final int LAST = 1_000_000;

    /** @return {@code page} within 0 and {@link #LAST} */
    static int clamp(int page) {
        return Math.max(0, Math.min(LAST, page));
    }

    static Pager of(int number, boolean hasNext) {
        return new Pager(number, number > 0 ? link(number - 1) : null, hasNext ? link(number + 1) : null);
    }

    private static String link(int page) {
        UriComponents current = ServletUriComponentsBuilder.fromCurrentRequest().replaceQueryParam("page", page).build();
        // relative, so a proxy in front of the console needs no forwarded headers for it
        return UriComponentsBuilder.fromPath(current.getPath()).query(current.getQuery()).build().toUriString();
    }
}
