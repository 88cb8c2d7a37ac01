package dev.tickwheel;

import dev.tickwheel.TimingWheel.Node;

/**
 * A slot of a {@link TimingWheel}: the head (sentinel) of its circular list, never handed out, which knows its place
 * so that emptying the slot clears its bit. Above level 0 it also keeps the fetch hints of its cascade: up to
 * {@link #HINTS} of its nodes, evenly spaced in the order they were appended (the appends at {@link #stride} times 1,
 * 2, 3, ... since the slot last emptied or cascaded). A cascade uses them only to read ahead ({@link #fetchAhead}),
 * never to find or link a node, so a stale hint (its node removed, or moved to another slot) costs a wasted read and
 * nothing else. The hints are dropped whenever the slot empties, cascades or is cleared, so they keep no removed node
 * reachable from an empty slot.
 *
 * <p>Threading: the wheel's, single-threaded; every field is plain.
 */
final class WheelSlot extends Node {

    /** Fetch hints a slot above level 0 keeps. */
    static final int HINTS = 16;
    /** Appends between two hints while a slot's list is short: its first {@value} nodes have no hint. */
    static final int FIRST_STRIDE = 16;
    /** How many hinted stretches of a cascading list {@link #fetchAhead} reads at once (misses in flight). */
    static final int FETCH_GROUP = 8;

    final int level;
    final int digit;
    /** Null at level 0, whose slots expire and never cascade. */
    final Node[] hints;
    /** Nodes appended since the hints were last dropped (wraps after 2^32: only the hints' spacing suffers). */
    int appended;
    /** The value of {@link #appended} at which the next append becomes a hint; -1 at level 0 (never, or a no-op). */
    int nextHint;
    /** Appends between two hints; doubles each time the hints fill up. */
    int stride;
    /** How many of {@link #hints} are set, from index 0. */
    int hinted;

    WheelSlot(int level, int digit) {
        this.level = level;
        this.digit = digit;
        this.hints = level > 0 ? new Node[HINTS] : null;
        this.prev = this;
        this.next = this;
        dropHints();
    }

    /**
     * The append that {@link #nextHint} named (the wheel's link tests {@code appended++ == nextHint}): it becomes a
     * hint. No hint for a short list, whose walk does not need them. When the hints are full, the even multiples of
     * the stride are kept, at twice the stride, and this append (an odd multiple) is skipped.
     */
    void takeHint(Node node) {
        Node[] hs = hints;
        if (hs == null) {
            return; // level 0 once its count wrapped to -1
        }
        int h = hinted;
        int s = stride;
        if (h == HINTS) {
            for (int i = 0; i < HINTS / 2; i++) {
                hs[i] = hs[2 * i + 1];
            }
            for (int i = HINTS / 2; i < HINTS; i++) {
                hs[i] = null;
            }
            stride = 2 * s;
            hinted = HINTS / 2;
            nextHint += s; // the next even multiple of the old stride
            return;
        }
        hs[h] = node;
        hinted = h + 1;
        nextHint += s;
    }

    /** Drops the hints (the slot emptied, cascaded or was cleared), so that they keep no node reachable. */
    void dropHints() {
        Node[] hs = hints;
        for (int i = 0; i < hinted; i++) {
            hs[i] = null;
        }
        hinted = 0;
        appended = 0;
        stride = FIRST_STRIDE;
        nextHint = hs == null ? -1 : FIRST_STRIDE;
    }

    /**
     * Reads the nodes of hinted stretches {@code from} to {@code to - 1} (and of the one from {@code head}, if not
     * null), up to {@code stretch} nodes from each, one step of every stretch per round, so that the reads of
     * different stretches are independent and their misses overlap. Reads only: a stale hint's walk ends at a node in
     * no wheel (null link), at any slot's head, or after {@code stretch} steps.
     *
     * @param cursors scratch of at least {@code to - from + 1} entries, left all null
     * @return a sum of the keys read, for the caller to keep so that the reads cannot be dropped as unused
     */
    static long fetchAhead(Node head, Node[] hints, int from, int to, int stretch, Node[] cursors) {
        Node[] cur = cursors;
        int k = 0;
        if (head != null) {
            cur[k++] = head;
        }
        for (int i = from; i < to; i++) {
            Node h = hints[i];
            if (h != null) {
                cur[k++] = h;
            }
        }
        long sink = 0;
        for (int step = 0; step < stretch && k > 0; step++) {
            for (int i = 0; i < k; ) {
                Node c = cur[i].next;
                if (c == null || c instanceof WheelSlot) {
                    cur[i] = cur[--k];
                    cur[k] = null;
                } else {
                    sink += c.key;
                    cur[i++] = c;
                }
            }
        }
        for (int i = 0; i < k; i++) {
            cur[i] = null;
        }
        return sink;
    }

    /** The hints' invariants: none at level 0 or in an empty slot, and exactly the first {@code hinted} set. */
    void checkHints(boolean nonEmpty) {
        String where = "level " + level + " slot " + digit + ": ";
        if (hints == null) {
            if (level > 0 || hinted != 0) {
                throw new AssertionError(where + "hints " + hinted + " without an array");
            }
            return;
        }
        if (!nonEmpty && (hinted != 0 || appended != 0)) {
            throw new AssertionError(where + "empty but keeps " + hinted + " hints of " + appended);
        }
        if (hinted < 0 || hinted > HINTS) {
            throw new AssertionError(where + hinted + " hints");
        }
        for (int i = 0; i < HINTS; i++) {
            if ((hints[i] != null) != (i < hinted)) {
                throw new AssertionError(where + "hint " + i + " is " + hints[i] + " with " + hinted + " set");
            }
        }
    }
}
