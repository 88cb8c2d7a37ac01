package dev.tickwheel;

import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A single-threaded hierarchical timing wheel (Varghese &amp; Lauck, scheme 7) over non-negative {@code long}
 * keys. Time is not read from any clock: the caller hands it in through {@link #increaseMinAllowedKey}, so the
 * wheel is deterministic and every behaviour can be tested on virtual time.
 *
 * <h2>Threading</h2>
 * Not thread-safe. One thread at a time may use a wheel and its nodes; the concurrent {@link WheelTimer} confines
 * its wheel to its owner thread.
 *
 * <h2>Semantics</h2>
 * The wheel holds elements ({@link Node}s) at keys in {@code [minAllowedKey(), maxAllowedKey()]}.
 * {@link #increaseMinAllowedKey(long, Consumer)} raises the minimum allowed key and hands every element whose key
 * is below the new minimum to a handler, in key order (elements with equal keys in the order they were added).
 * The allowed window always spans at least {@code 2^B} keys, where {@code B} is the sum of the level bits:
 * {@code maxAllowedKey() >= min(Long.MAX_VALUE, minAllowedKey() + 2^B - 1)}.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li><b>Levels.</b> Level {@code l} has {@code 2^bits[l]} slots and covers the key bits
 *   {@code [shift(l), shift(l) + bits[l])}, where {@code shift(l)} is the sum of the bits of the levels below it.
 *   Level 0 slots hold exactly one key each; a level-{@code l} slot holds {@code 2^shift(l)} consecutive keys.</li>
 *   <li><b>Slot selection.</b> Let {@code now = minAllowedKey()}. An element with key {@code k} lives at the level
 *   that contains the highest bit in which {@code k} and {@code now} differ (level 0 when they are equal), in the
 *   slot given by the key's own bits at that level: {@code (k >>> shift(l)) & (2^bits[l] - 1)}. Bits at or above
 *   {@code B} all count as the top level. Consequently every element of level {@code l} is smaller than every
 *   element of level {@code l + 1}, and below the top level a level-{@code l} element's slot digit is greater
 *   than {@code now}'s digit at that level.</li>
 *   <li><b>The top level is a ring.</b> Its slot for {@code now}'s own digit is empty by construction (such keys
 *   live lower), so it holds keys exactly one revolution ahead. That is what lets the window reach
 *   {@code now + 2^B - 1} and beyond, whatever {@code now}'s alignment. (With a single level there is nothing
 *   lower, so the single level is a plain ring of {@code 2^bits[0]} keys.)</li>
 *   <li><b>Cascading.</b> When {@code now} reaches the first key of an occupied slot above level 0, the slot's
 *   elements are re-added relative to the new {@code now} and so fall to lower levels; an element moves at most
 *   once per level. A slot's first key is its only event: nothing in the wheel changes between events, so the
 *   advance jumps from event to event and never walks empty slots.</li>
 *   <li><b>Bitmaps.</b> Each level keeps an occupancy bitmap of its slots (one bit a slot, 64 slots a word) and a
 *   summary word (one bit a bitmap word), and the wheel keeps a {@code long} of non-empty levels (one bit a level:
 *   every level has at least one of the at most {@value #MAX_TOTAL_BITS} key bits, so there are at most that many
 *   levels; its shifts and bit counts are {@code long} ones, since an {@code int} would wrap at 32 levels). The
 *   next occupied slot of a level, circularly from {@code now}'s digit, is a couple of
 *   {@code numberOfTrailingZeros}; the earliest event of the whole wheel is in its lowest non-empty level. That is
 *   why levels are capped at {@value #MAX_LEVEL_BITS} bits: 64 words of 64 slots.</li>
 *   <li><b>Intrusive nodes.</b> An element is its own list node ({@link Node}: key, two links, its wheel); each
 *   slot is a circular doubly-linked list through a sentinel node, in insertion order. Adding, removing and
 *   moving an element allocate nothing.</li>
 * </ul>
 *
 * <h2>Cost of each operation</h2>
 * <ul>
 *   <li>{@link #add}, {@link #addInRange}, {@link #remove}, {@link #reschedule}, {@link #contains},
 *   {@link #maxAllowedKey()}, {@link #nextEventAtOrBefore}: O(1).</li>
 *   <li>{@link #increaseMinAllowedKey}: O(1) per occupied slot it reaches plus O(1) per element it expires or
 *   cascades (each element cascades at most once per level). Crossing empty key ranges is free: jumping
 *   10<sup>12</sup> keys over a sparse wheel costs what jumping one does.</li>
 *   <li>{@link #minKey()}, {@link #minElement()}: O(1) to find the slot, plus a scan of that one slot when it is
 *   above level 0 (its keys differ).</li>
 *   <li>{@link #clear()}: O(size), since every node is unlinked so it can be added again.</li>
 * </ul>
 *
 * <h2>Re-entrancy from the handler</h2>
 * The handler of {@link #increaseMinAllowedKey} is called with the element already removed and the wheel in a
 * consistent state in which {@link #minAllowedKey()} is the key of that element. The handler may {@link #add},
 * {@link #remove}, {@link #reschedule} or {@link #clear} freely: an element it removes is not handed out, and an
 * element it adds below the target key is handed out by the same call. It may not call
 * {@link #increaseMinAllowedKey} (an {@link IllegalStateException}). If the handler throws, the exception
 * propagates; the element it was given stays removed, the wheel stays consistent, and
 * {@link #minAllowedKey()} tells where a later call resumes.
 *
 * @param <N> the element type: a subclass of {@link Node}, so the element is its own list node
 */
public final class TimingWheel<N extends TimingWheel.Node> extends TimingWheelAttachmentPad {

    /** The largest number of bits of one level: 4096 slots, so that a level's bitmap summary fits one word. */
    public static final int MAX_LEVEL_BITS = 12;

    /** The largest sum of the level bits; since a level has at least one bit, also the most levels a wheel has. */
    public static final int MAX_TOTAL_BITS = 62;

    /** The largest key an element may have. */
    public static final long MAX_REPRESENTABLE_KEY = Long.MAX_VALUE;

    /** The widest digit mask of a level: 2^MAX_LEVEL_BITS - 1. */
    private static final int MAX_DIGIT_MASK = (1 << MAX_LEVEL_BITS) - 1;

    private static final int[] DEFAULT_LEVEL_BITS = {6, 6, 6, 6, 6, 6, 6, 6};

    /**
     * An element of a wheel: its own node in the wheel's slot lists. Subclass it to carry a payload, so that a
     * scheduled element costs a single object.
     *
     * <p>Not thread-safe: its fields belong to the thread that uses the wheel it is in.
     *
     * <p>A node that left a wheel drops its links to other nodes but keeps a reference to that wheel, so holding
     * on to it keeps the wheel reachable.
     */
    public static class Node {
        /** The key, valid while the node is in a wheel (and the last one it had after). */
        long key;
        /**
         * Neighbours in the slot's circular list; {@code prev} is null exactly while the node is in no wheel, and
         * so is {@code next} for the wheel's own use (a {@code WheelTimer}'s command chain may use {@code next} of a
         * timer in no wheel: see {@code TimerChain}).
         */
        Node prev;
        Node next;
        /**
         * The wheel holding this node while {@link #prev} is non-null; afterwards the last wheel it was in (or null
         * if never added). Left set on removal so that removing and re-adding to the same wheel, the common case,
         * stores no reference here: each reference store costs a GC write barrier. Written by the thread that owns
         * the wheel, plain. A {@link WheelTimer}'s timer sets it in its constructor to its owner's wheel (plain,
         * published with the timer's other fields by the start offer), the wheel never rewrites it, and other
         * threads read it to reach the timer (see {@code ScheduledTimer.timer()}).
         */
        TimingWheel<?> wheel;

        /** Creates a node that is in no wheel. */
        public Node() {
        }

        /** @return the node's key while it is in a wheel; after removal or expiry, the key it last had */
        public final long key() {
            return key;
        }

        /** @return whether the node is in some wheel */
        public final boolean isInWheel() {
            return prev != null;
        }
    }

    private final int[] bits;
    private final int levels;
    private final int topLevel;
    /** shift[l]: the lowest key bit of level l. */
    private final int[] shift;
    /** mask[l]: 2^bits[l] - 1. */
    private final long[] mask;
    /** slotBase[l]: index of level l's first sentinel in {@link #slots}. */
    private final int[] slotBase;
    /** wordBase[l]: index of level l's first bitmap word in {@link #occupied}. */
    private final int[] wordBase;
    /** levelOfBit[b]: the level that holds a key whose highest bit differing from now is b. */
    private final byte[] levelOfBit;
    /**
     * placement[64 - numberOfLeadingZeros(key ^ now)]: where {@link #link} puts such a key, packed so that one load
     * replaces four: bits 0-5 the level's shift (a {@code long} shift uses only those bits), 6-17 the level's
     * digit mask, 18 and up the index of the level's first sentinel in {@link #slots}. Entry 0 is for key == now.
     */
    private final long[] placement;
    private final WheelSlot[] slots;
    private final long[] occupied;
    /** summary[l]: bit w set when level l's bitmap word w is non-zero. */
    private final long[] summary;
    /**
     * Bit l set when level l holds an element. A {@code long} because a wheel may have up to
     * {@value #MAX_TOTAL_BITS} levels: every shift of it, and the bit count that picks its lowest level, must be the
     * {@code long} one ({@code 1L << level}, {@link Long#numberOfTrailingZeros}).
     */
    private long occupiedLevels;

    private long now;
    /** {@code maxAllowedKey(now)}, kept in step with {@link #now} by {@link #setNow} so that add need not derive it. */
    private long maxKey;
    private int size;
    private boolean advancing;
    /** Nodes expired or cascaded, and slots processed, since creation: the test seam for cost checks. */
    private long visits;
    /** {@link WheelSlot#fetchAhead}'s cursors, one per hinted stretch it walks; null between its calls. */
    private final Node[] fetchCursors = new Node[WheelSlot.FETCH_GROUP + 1];
    /** A sum of the keys {@link WheelSlot#fetchAhead} read, kept so that its reads cannot be dropped as unused. */
    private long fetchSink;

    /** Creates a wheel with the default levels (eight of six bits: 48 bits of keys) starting at key 0. */
    public TimingWheel() {
        this(0L, DEFAULT_LEVEL_BITS);
    }

    /**
     * Creates a wheel starting at key 0.
     *
     * @param levelBits bits per level, lowest level first
     * @throws IllegalArgumentException as {@link #TimingWheel(long, int...)}
     */
    public TimingWheel(int... levelBits) {
        this(0L, levelBits);
    }

    /**
     * Creates a wheel.
     *
     * @param startKey  the initial {@link #minAllowedKey()}, at least 0
     * @param levelBits bits per level, lowest level first: at least one level, each from 1 to
     *                  {@value #MAX_LEVEL_BITS}, summing to at most {@value #MAX_TOTAL_BITS}
     * @throws IllegalArgumentException naming the offending value if the rules above are broken
     * @throws NullPointerException     if levelBits is null
     */
    public TimingWheel(long startKey, int... levelBits) {
        this(startKey, levelBits, null);
    }

    /**
     * A wheel that carries {@code attachment} for its nodes to find through {@link Node#wheel} (the
     * {@link WheelTimer} that owns it: its timers reach their timer that way rather than by a field of their own).
     */
    TimingWheel(long startKey, int[] levelBits, Object attachment) {
        super(attachment);
        Objects.requireNonNull(levelBits, "levelBits");
        if (startKey < 0) {
            throw new IllegalArgumentException("startKey " + startKey + " is negative: keys are non-negative");
        }
        if (levelBits.length == 0) {
            throw new IllegalArgumentException("levelBits is empty: a wheel needs at least one level");
        }
        int total = 0;
        for (int i = 0; i < levelBits.length; i++) {
            int b = levelBits[i];
            if (b < 1 || b > MAX_LEVEL_BITS) {
                throw new IllegalArgumentException("levelBits[" + i + "] = " + b + " is outside [1, "
                        + MAX_LEVEL_BITS + "]: a level has from 2 to " + (1 << MAX_LEVEL_BITS) + " slots");
            }
            total += b;
        }
        if (total > MAX_TOTAL_BITS) {
            throw new IllegalArgumentException("levelBits " + Arrays.toString(levelBits) + " sum to " + total
                    + " bits, more than the " + MAX_TOTAL_BITS + " a key can use");
        }
        this.bits = levelBits.clone();
        this.levels = bits.length;
        this.topLevel = levels - 1;
        this.shift = new int[levels];
        this.mask = new long[levels];
        this.slotBase = new int[levels];
        this.wordBase = new int[levels];
        this.summary = new long[levels];
        int s = 0;
        int slotCount = 0;
        int wordCount = 0;
        for (int l = 0; l < levels; l++) {
            shift[l] = s;
            mask[l] = (1L << bits[l]) - 1;
            slotBase[l] = slotCount;
            wordBase[l] = wordCount;
            s += bits[l];
            slotCount += 1 << bits[l];
            wordCount += Math.max(1, (1 << bits[l]) >>> 6);
        }
        this.levelOfBit = new byte[64];
        for (int b = 0; b < 64; b++) {
            int l = topLevel;
            for (int k = 0; k < levels; k++) {
                if (b < shift[k] + bits[k]) {
                    l = k;
                    break;
                }
            }
            levelOfBit[b] = (byte) l;
        }
        this.placement = new long[65];
        for (int i = 0; i <= 64; i++) {
            int l = i == 0 ? 0 : levelOfBit[i - 1];
            placement[i] = shift[l] | mask[l] << 6 | (long) slotBase[l] << 18;
        }
        this.slots = new WheelSlot[slotCount];
        for (int l = 0; l < levels; l++) {
            for (int d = 0; d < (1 << bits[l]); d++) {
                slots[slotBase[l] + d] = new WheelSlot(l, d);
            }
        }
        this.occupied = new long[wordCount];
        setNow(startKey);
    }

    /** @return a copy of the bits per level, lowest level first */
    public int[] levelBits() {
        return bits.clone();
    }

    /** @return the default level bits: eight levels of six bits */
    public static int[] defaultLevelBits() {
        return DEFAULT_LEVEL_BITS.clone();
    }

    /** @return the number of elements in the wheel */
    public int size() {
        return size;
    }

    /** @return whether the wheel holds no element */
    public boolean isEmpty() {
        return size == 0;
    }

    /** @return the smallest key an element may be added at; every element's key is at least this */
    public long minAllowedKey() {
        return now;
    }

    /**
     * @return the largest key an element may be added at now: at least
     *         {@code min(Long.MAX_VALUE, minAllowedKey() + 2^B - 1)} where {@code B} is the sum of the level bits
     */
    public long maxAllowedKey() {
        return maxKey;
    }

    /** Moves {@link #now} and the cached {@link #maxKey} with it. */
    private void setNow(long at) {
        now = at;
        maxKey = maxAllowedKey(at);
    }

    private long maxAllowedKey(long at) {
        if (levels == 1) {
            long span = mask[0];
            return at > Long.MAX_VALUE - span ? Long.MAX_VALUE : at + span;
        }
        int s = shift[topLevel];
        long lastTopIndex = (at >>> s) + (1L << bits[topLevel]);
        if (lastTopIndex > (Long.MAX_VALUE >>> s)) {
            return Long.MAX_VALUE;
        }
        // (lastTopIndex + 1) << s may be exactly 2^63, which wraps to Long.MIN_VALUE; minus one is then MAX_VALUE.
        return ((lastTopIndex + 1) << s) - 1;
    }

    /**
     * @param node the element
     * @return whether the node is in this wheel
     */
    public boolean contains(N node) {
        return holds(node);
    }

    /**
     * Adds an element. O(1), no allocation.
     *
     * @param node the element
     * @param key the key
     * @throws IllegalArgumentException if key is outside {@code [minAllowedKey(), maxAllowedKey()]} (the wheel is
     *                                  unchanged), or the node is already in a wheel
     * @throws NullPointerException     if node is null
     */
    public void add(N node, long key) {
        checkFree(node);
        checkKey(key);
        link(node, key);
        size++;
    }

    /**
     * Adds an element at a key of the caller's range {@code [lo, hi]} chosen to save work: the latest key of the
     * range that starts a slot at the highest level whose boundary falls in the range, so the element falls
     * straight to level 0 when its slot is reached instead of cascading through every level (Ratas's range
     * scheduling). If the node is already in this wheel at a key inside the range, it stays where it is; if it is
     * in this wheel elsewhere, it is moved. The range is first clipped to the allowed window.
     *
     * @param node the element
     * @param lo the lowest acceptable key
     * @param hi the highest acceptable key
     * @return the element's key
     * @throws IllegalArgumentException if {@code lo > hi}, if the range and the allowed window do not overlap, or
     *                                  the node is in another wheel; the wheel is then unchanged
     */
    public long addInRange(N node, long lo, long hi) {
        Objects.requireNonNull(node, "node");
        if (lo > hi) {
            throw new IllegalArgumentException("empty range [" + lo + ", " + hi + "]: lo must be <= hi");
        }
        long max = maxAllowedKey();
        long from = Math.max(lo, now);
        long to = Math.min(hi, max);
        if (from > to) {
            throw new IllegalArgumentException("range [" + lo + ", " + hi + "] is outside the allowed keys ["
                    + now + ", " + max + "]");
        }
        boolean here = holds(node);
        if (here) {
            if (node.key >= lo && node.key <= hi) {
                return node.key;
            }
        } else if (node.prev != null) {
            throw new IllegalArgumentException("node is already in another wheel");
        }
        long key = from == to ? to : roundDownToLevelBoundary(from, to);
        if (here) {
            unlink(node);
            size--;
        }
        link(node, key);
        size++;
        return key;
    }

    /**
     * The latest key in [from, to] that starts a slot of the highest level possible: when that slot is reached the
     * element falls straight to level 0 instead of cascading through the levels between. O(levels).
     */
    private long roundDownToLevelBoundary(long from, long to) {
        for (int l = topLevel; l > 0; l--) {
            long boundary = to & -(1L << shift[l]);
            if (boundary >= from) {
                return boundary;
            }
        }
        return to;
    }

    /**
     * Removes an element. O(1), no allocation.
     *
     * @param node the element
     * @return true if the node was in this wheel and is now removed; false (and nothing changes) if it was not
     */
    public boolean remove(N node) {
        if (!holds(node)) {
            return false;
        }
        unlink(node);
        size--;
        return true;
    }

    /**
     * Moves an element of this wheel to a new key. O(1), no allocation. Equivalent to remove then add, except
     * that the wheel is unchanged if the key is not allowed.
     *
     * @param node the element
     * @param key the key
     * @throws IllegalArgumentException if the node is not in this wheel or the key is outside
     *                                  {@code [minAllowedKey(), maxAllowedKey()]}
     */
    public void reschedule(N node, long key) {
        if (!holds(node)) {
            throw new IllegalArgumentException("node is not in this wheel");
        }
        checkKey(key);
        unlink(node);
        link(node, key);
    }

    /**
     * Raises {@link #minAllowedKey()} to {@code key}, handing every element whose key is below it to the handler,
     * in key order. Does nothing if {@code key <= minAllowedKey()}.
     *
     * @param key the key
     * @param handler receives each element handed out
     * @return the number of elements handed to the handler
     * @throws IllegalStateException if called from the handler of another call
     */
    public int increaseMinAllowedKey(long key, Consumer<? super N> handler) {
        return increaseMinAllowedKey(key, Integer.MAX_VALUE, handler);
    }

    /**
     * Raises {@link #minAllowedKey()} towards {@code key} but hands at most {@code maxExpired} elements to the
     * handler (a bounded advance, from Ratas). If the bound stops it early, {@link #minAllowedKey()} is left at the
     * key of the next element due, which is below {@code key}, and another call resumes exactly there; otherwise
     * {@link #minAllowedKey()} becomes {@code key}. A caller therefore loops while
     * {@code minAllowedKey() < key}.
     *
     * @param key the key
     * @param handler receives each element handed out
     * @param maxExpired at least 1
     * @return the number of elements handed to the handler
     * @throws IllegalArgumentException if maxExpired &lt; 1
     * @throws IllegalStateException    if called from the handler of another call
     */
    public int increaseMinAllowedKey(long key, int maxExpired, Consumer<? super N> handler) {
        if (maxExpired < 1) {
            throw new IllegalArgumentException("maxExpired " + maxExpired + " must be at least 1");
        }
        Objects.requireNonNull(handler, "handler");
        if (advancing) {
            throw new IllegalStateException("increaseMinAllowedKey called from its own handler");
        }
        if (key <= now) {
            return 0;
        }
        // A caller that advances often mostly lands here or finds no event up to key; the loop is kept out of line so
        // that this entry stays small enough to inline.
        return advance(key, maxExpired, handler);
    }

    /** The body of {@link #increaseMinAllowedKey(long, int, Consumer)} once the arguments are checked and key > now. */
    @SuppressWarnings("unchecked")
    private int advance(long key, int maxExpired, Consumer<? super N> handler) {
        advancing = true;
        int expired = 0;
        try {
            while (occupiedLevels != 0) {
                int level = Long.numberOfTrailingZeros(occupiedLevels);
                int digit = nextOccupiedDigit(level);
                long event = slotStart(level, digit);
                if (event > key || (event == key && level == 0)) {
                    break;
                }
                setNow(event);
                visits++;
                WheelSlot slot = slots[slotBase[level] + digit];
                if (level > 0) {
                    cascade(slot);
                    continue;
                }
                // Expire the slot head by head: the handler may add to or remove from this very slot.
                Node head;
                while ((head = slot.next) != slot) {
                    if (expired == maxExpired) {
                        return expired;
                    }
                    unlink(head);
                    size--;
                    expired++;
                    visits++;
                    handler.accept((N) head);
                }
            }
            setNow(key);
            return expired;
        } finally {
            advancing = false;
        }
    }

    /**
     * Re-adds every element of a slot above level 0 relative to {@link #now}, which just reached its start, in list
     * order (so equal keys keep their insertion order).
     *
     * <p>A walk of a list waits for each node's line before it learns the next node, and among a million timers
     * those lines are cold: one miss after another. A slot with two or more fetch hints (see {@link WheelSlot}) is
     * walked by {@link #relinkFetchingAhead}, which reads its stretches ahead side by side. A shorter list is walked
     * as before: a second cursor walks it from its tail, by the back links, one node per round, only to bring those
     * lines in; the two walks' misses overlap, and once the cursors meet, the re-linking walk finds the rest of the
     * list already fetched.
     */
    private void cascade(WheelSlot slot) {
        Node n = slot.next;
        Node back = slot.prev;
        int hinted = slot.hinted;
        int stretch = slot.stride;
        // Detach the whole list first, then re-link each node: none can land back in this slot. The nodes keep
        // their links until re-linked, and the last one still points at the sentinel, which ends the walk.
        slot.next = slot;
        slot.prev = slot;
        clearOccupied(slot.level, slot.digit);
        if (hinted > 1) {
            relinkFetchingAhead(slot, n, hinted, stretch);
            slot.dropHints();
            return;
        }
        slot.dropHints();
        boolean fetching = back != n;
        while (n != slot) {
            Node following = n.next;
            if (fetching) {
                if (back == n || back == following) {
                    fetching = false; // met: the nodes from here on were fetched by the back cursor
                } else {
                    // Not yet met: step the fetching cursor. It reads only back links of nodes the re-linking walk
                    // has not reached, which are still the list's own.
                    back = back.prev;
                }
            }
            visits++;
            link(n, n.key);
            n = following;
        }
    }

    /**
     * The cascade's walk for a slot with hints: before re-linking each group of {@link WheelSlot#FETCH_GROUP}
     * hinted stretches, read them all ahead, one cursor per stretch, so that their misses overlap; the re-linking walk,
     * in list order as ever, then finds their lines in the cache. The first reading also takes the list's unhinted
     * head. A group's re-linking starts the next group's reading when it reaches that group's first hint, or after as
     * many nodes as the group was appended with (its hints may be stale).
     */
    private void relinkFetchingAhead(WheelSlot slot, Node n, int hinted, int stretch) {
        Node[] hints = slot.hints;
        // The first reading takes the list's unhinted head (one stride from the first node) with the first group.
        int group = Math.min(WheelSlot.FETCH_GROUP, hinted);
        fetchSink += WheelSlot.fetchAhead(n, hints, 0, group, stretch, fetchCursors);
        long budget = (long) (group + 1) * stretch;
        Node boundary = group < hinted ? hints[group] : null;
        while (n != slot) {
            if (budget == 0 || n == boundary) {
                if (group < hinted) {
                    int end = Math.min(group + WheelSlot.FETCH_GROUP, hinted);
                    fetchSink += WheelSlot.fetchAhead(null, hints, group, end, stretch, fetchCursors);
                    budget = (long) (end - group) * stretch;
                    group = end;
                    boundary = group < hinted ? hints[group] : null;
                } else {
                    budget = Long.MAX_VALUE;
                    boundary = null;
                }
            }
            Node following = n.next;
            visits++;
            link(n, n.key);
            n = following;
            budget--;
        }
    }

    /**
     * @return the smallest key of any element
     * @throws NoSuchElementException if the wheel is empty
     */
    public long minKey() {
        Node n = minNode();
        if (n == null) {
            throw new NoSuchElementException("the wheel is empty");
        }
        return n.key;
    }

    /**
     * @return an element with the smallest key (the first added among equals), or null if the wheel is empty
     */
    @SuppressWarnings("unchecked")
    public N minElement() {
        return (N) minNode();
    }

    private Node minNode() {
        if (occupiedLevels == 0) {
            return null;
        }
        int level = Long.numberOfTrailingZeros(occupiedLevels);
        WheelSlot slot = slots[slotBase[level] + nextOccupiedDigit(level)];
        Node best = slot.next;
        if (level > 0) {
            for (Node n = best.next; n != slot; n = n.next) {
                if (n.key < best.key) {
                    best = n;
                }
            }
        }
        return best;
    }

    /**
     * The next-event query (Ratas's, with an upper bound): the earliest key at which the wheel has work, either an
     * element to expire or a slot to cascade, or {@code limit} if that is later. It is never later than
     * {@link #minKey()}, and advancing to any key up to it hands nothing out, so a timer thread may sleep until
     * then. It costs O(1): it looks at the earliest occupied slot, not into it, so for an element above level 0
     * it answers the cascade time; after that cascade a new query is closer to the element's key.
     *
     * @param limit the latest key of interest
     * @return {@code min(limit, earliest event)}; {@code limit} if the wheel is empty
     */
    public long nextEventAtOrBefore(long limit) {
        if (occupiedLevels == 0) {
            return limit;
        }
        int level = Long.numberOfTrailingZeros(occupiedLevels);
        long event = slotStart(level, nextOccupiedDigit(level));
        return Math.min(event, limit);
    }

    /**
     * The smallest key of any element if finding it takes at most {@code maxScan} looks, else the next event (see
     * {@link #nextEventAtOrBefore}), which is earlier: at level 0 the next event is that key; above, the earliest
     * occupied slot holds the smallest key, and it is scanned if it holds at most {@code maxScan} elements. So a
     * thread that must be awake when the first element is handed out may sleep until the answer. O(maxScan).
     *
     * @param maxScan the most elements to look at, at least 0
     * @return a key no later than {@link #minKey()}; {@link Long#MAX_VALUE} if the wheel is empty
     */
    public long minKeyOrNextEvent(int maxScan) {
        if (occupiedLevels == 0) {
            return Long.MAX_VALUE;
        }
        int level = Long.numberOfTrailingZeros(occupiedLevels);
        int digit = nextOccupiedDigit(level);
        if (level == 0) {
            return slotStart(0, digit);
        }
        WheelSlot slot = slots[slotBase[level] + digit];
        long min = Long.MAX_VALUE;
        int looked = 0;
        for (Node n = slot.next; n != slot; n = n.next) {
            if (++looked > maxScan) {
                return slotStart(level, digit);
            }
            min = Math.min(min, n.key);
        }
        return min;
    }

    /**
     * Removes every element, without handing any out; each can be added again. {@link #minAllowedKey()} is kept.
     * O(size).
     */
    public void clear() {
        for (WheelSlot slot : slots) {
            Node n = slot.next;
            while (n != slot) {
                Node following = n.next;
                n.prev = null;
                n.next = null;
                n = following;
            }
            slot.next = slot;
            slot.prev = slot;
            slot.dropHints();
        }
        Arrays.fill(occupied, 0L);
        Arrays.fill(summary, 0L);
        occupiedLevels = 0;
        size = 0;
    }

    /**
     * Removes every element and hands each to the handler, level by level and slot by slot (not in key order).
     * {@link #minAllowedKey()} is kept. O(size + slots). The handler must not change this wheel (an
     * {@link IllegalStateException} if it calls {@link #increaseMinAllowedKey}; other changes are not detected and
     * their elements may be handed out or kept). Used to hand pending timers back on shutdown.
     *
     * @param handler receives each element handed out
     * @return the number of elements handed out
     */
    @SuppressWarnings("unchecked")
    public int removeAll(Consumer<? super N> handler) {
        Objects.requireNonNull(handler, "handler");
        if (advancing) {
            throw new IllegalStateException("removeAll called from the handler of increaseMinAllowedKey");
        }
        advancing = true;
        int removed = 0;
        try {
            while (occupiedLevels != 0) {
                int level = Long.numberOfTrailingZeros(occupiedLevels);
                WheelSlot slot = slots[slotBase[level] + nextOccupiedDigit(level)];
                Node head;
                while ((head = slot.next) != slot) {
                    unlink(head);
                    size--;
                    removed++;
                    handler.accept((N) head);
                }
            }
            return removed;
        } finally {
            advancing = false;
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Internals

    // The checks below are on every add: their failure messages are built in separate methods so that the checks
    // stay a few instructions and add stays small enough for the JIT to inline into its caller.

    private void checkFree(N node) {
        Objects.requireNonNull(node, "node");
        if (node.prev != null) {
            throw notFree(node);
        }
    }

    private IllegalArgumentException notFree(Node node) {
        return new IllegalArgumentException(node.wheel == this
                ? "node is already in this wheel (at key " + node.key + "); use reschedule to move it"
                : "node is already in another wheel");
    }

    private void checkKey(long key) {
        if (key < now || key > maxKey) {
            throw keyOutside(key);
        }
    }

    private IllegalArgumentException keyOutside(long key) {
        return new IllegalArgumentException("key " + key + " is outside the allowed keys [" + now + ", " + maxKey
                + "]");
    }

    /** Whether the node is in this wheel: it is in some wheel ({@code prev} set) and that wheel is this one. */
    private boolean holds(Node node) {
        return node.prev != null && node.wheel == this;
    }

    private int levelOf(long key) {
        long diff = key ^ now;
        if (diff == 0 || levels == 1) {
            return 0;
        }
        return levelOfBit[63 - Long.numberOfLeadingZeros(diff)];
    }

    /** Appends a node to the tail of its slot's list and marks the slot occupied if it was empty. */
    private void link(Node node, long key) {
        long place = placement[64 - Long.numberOfLeadingZeros(key ^ now)];
        int digit = (int) (key >>> place & place >>> 6) & MAX_DIGIT_MASK;
        WheelSlot slot = slots[(int) (place >>> 18) + digit];
        Node tail = slot.prev;
        node.key = key;
        if (node.wheel != this) {
            node.wheel = this;
        }
        node.prev = tail;
        node.next = slot;
        tail.next = node;
        slot.prev = node;
        if (slot.appended++ == slot.nextHint) {
            slot.takeHint(node);
        }
        if (tail == slot) {
            // The slot was empty, so its bits are clear (a slot's bit is set exactly while it is non-empty).
            setOccupied(slot.level, digit);
        }
    }

    private void setOccupied(int level, int digit) {
        int w = digit >>> 6;
        occupied[wordBase[level] + w] |= 1L << digit;
        summary[level] |= 1L << w;
        occupiedLevels |= 1L << level;
    }

    /** Unlinks a node from its slot and clears the slot's bit when it empties. Does not touch {@link #size}. */
    private void unlink(Node node) {
        Node p = node.prev;
        Node n = node.next;
        p.next = n;
        n.prev = p;
        node.prev = null;
        node.next = null;
        if (p == n) {
            // Only the sentinel is left: the slot is empty.
            WheelSlot slot = (WheelSlot) p;
            clearOccupied(slot.level, slot.digit);
            slot.dropHints();
        }
    }

    private void clearOccupied(int level, int digit) {
        int w = digit >>> 6;
        int i = wordBase[level] + w;
        long word = occupied[i] & ~(1L << digit);
        occupied[i] = word;
        if (word == 0) {
            long s = summary[level] & ~(1L << w);
            summary[level] = s;
            if (s == 0) {
                occupiedLevels &= ~(1L << level);
            }
        }
    }

    /**
     * The first occupied digit of a non-empty level, circularly from now's digit at that level. Above level 0 the
     * search starts one past now's digit: below the top level that slot is always empty, and in the top ring it
     * holds the keys one revolution ahead, which come last.
     */
    private int nextOccupiedDigit(int level) {
        long nowDigit = now >>> shift[level];
        int from = (int) ((level == 0 ? nowDigit : nowDigit + 1) & mask[level]);
        int base = wordBase[level];
        int w = from >>> 6;
        long bitsFrom = occupied[base + w] & (-1L << from);
        if (bitsFrom != 0) {
            return (w << 6) + Long.numberOfTrailingZeros(bitsFrom);
        }
        long s = summary[level];
        long later = s & (-2L << w);
        int w2 = Long.numberOfTrailingZeros(later != 0 ? later : s);
        return (w2 << 6) + Long.numberOfTrailingZeros(occupied[base + w2]);
    }

    /** The first key of an occupied slot: when {@link #now} reaches it, the slot's elements expire or cascade. */
    private long slotStart(int level, int digit) {
        int s = shift[level];
        long nowDigit = (now >>> s) & mask[level];
        long distance = (digit - nowDigit) & mask[level];
        if (distance == 0 && level > 0) {
            // Only the top level can hold elements at now's own digit: they are one revolution ahead.
            distance = mask[level] + 1;
        }
        return ((now >>> s) + distance) << s;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Test seams

    /** Elements expired or cascaded plus events processed since creation; tests use it to check the cost. */
    long visits() {
        return visits;
    }

    /**
     * The level of the slot that holds a node of this wheel, found by walking the slot's list to its sentinel.
     * O(slot size); for tests that follow an element down the levels.
     */
    int levelOfSlotHolding(Node node) {
        if (!holds(node)) {
            throw new IllegalArgumentException("node is not in this wheel");
        }
        Node n = node.next;
        while (!(n instanceof WheelSlot)) {
            n = n.next;
        }
        return ((WheelSlot) n).level;
    }

    /** @return the fetch hints set in all slots (test seam: hints must not keep removed nodes reachable) */
    int hintsHeld() {
        int n = 0;
        for (WheelSlot slot : slots) {
            n += slot.hinted;
        }
        return n;
    }

    /**
     * Checks every structural invariant and throws {@link AssertionError} naming the first one broken. O(size +
     * slots); for tests.
     */
    void checkInvariants() {
        int count = 0;
        long max = maxAllowedKey();
        for (int l = 0; l < levels; l++) {
            for (int d = 0; d <= mask[l]; d++) {
                WheelSlot slot = slots[slotBase[l] + d];
                boolean bit = (occupied[wordBase[l] + (d >>> 6)] & (1L << d)) != 0;
                boolean nonEmpty = slot.next != slot;
                if (bit != nonEmpty) {
                    throw new AssertionError("level " + l + " slot " + d + ": bit " + bit + " but non-empty "
                            + nonEmpty);
                }
                Node prev = slot;
                for (Node n = slot.next; n != slot; n = n.next) {
                    count++;
                    if (n.prev != prev) {
                        throw new AssertionError("broken back link at key " + n.key);
                    }
                    if (n.wheel != this) {
                        throw new AssertionError("node at key " + n.key + " does not name this wheel");
                    }
                    if (n.key < now || n.key > max) {
                        throw new AssertionError("key " + n.key + " outside [" + now + ", " + max + "]");
                    }
                    if (levelOf(n.key) != l || ((n.key >>> shift[l]) & mask[l]) != d) {
                        throw new AssertionError("key " + n.key + " in level " + l + " slot " + d
                                + " but belongs in level " + levelOf(n.key));
                    }
                    if (slotStart(l, d) > n.key) {
                        throw new AssertionError("key " + n.key + " precedes its slot's start " + slotStart(l, d));
                    }
                    prev = n;
                }
                if (slot.prev != prev) {
                    throw new AssertionError("level " + l + " slot " + d + ": tail link broken");
                }
                slot.checkHints(nonEmpty);
            }
            int words = Math.max(1, (1 << bits[l]) >>> 6);
            for (int w = 0; w < words; w++) {
                boolean s = (summary[l] & (1L << w)) != 0;
                if (s != (occupied[wordBase[l] + w] != 0)) {
                    throw new AssertionError("level " + l + " summary bit " + w + " is " + s);
                }
            }
            if (((occupiedLevels & (1L << l)) != 0) != (summary[l] != 0)) {
                throw new AssertionError("level " + l + " occupancy bit is wrong");
            }
        }
        if (count != size) {
            throw new AssertionError("size " + size + " but " + count + " nodes linked");
        }
    }

    @Override
    public String toString() {
        return "TimingWheel[levels=" + Arrays.toString(bits) + ", minAllowedKey=" + now + ", size=" + size + "]";
    }
}

/**
 * The one field of a {@link TimingWheel} that threads other than its user read: what its creator attached (the
 * {@link WheelTimer}, which every worker reaches through its timers' wheel on every run). Final, so safely published
 * by the wheel's construction; kept a cache line away from the fields the owner writes on every add, remove and
 * advance ({@code now}, {@code size}, {@code occupiedLevels}), which otherwise shared its line, so that a worker's
 * read missed whenever the owner had worked since (async-profiler put 4.8% of the workers' CPU samples in the expiry
 * shot on that read).
 */
abstract class TimingWheelAttachment {
    /** What the creator attached (see the package-private constructor); null for a public one. */
    final Object attachment;

    TimingWheelAttachment(Object attachment) {
        this.attachment = attachment;
    }
}

/** A cache line of padding between the attachment and the wheel's own fields (checked by a layout test). */
abstract class TimingWheelAttachmentPad extends TimingWheelAttachment {
    long p00, p01, p02, p03, p04, p05, p06, p07;

    TimingWheelAttachmentPad(Object attachment) {
        super(attachment);
    }
}
