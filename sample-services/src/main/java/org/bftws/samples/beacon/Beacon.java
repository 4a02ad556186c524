package org.bftws.samples.beacon;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.crypto.threshold.ThresholdScheme;

/**
 * One replica's side of the group's drand beacon: it releases its threshold BLS share of round r only once
 * round r is due by its clock (so no f replicas learn a round early: f+1 shares are needed), gathers the
 * other replicas' shares of a round over their {@code /beacon/partial/{round}}, checks each against that
 * replica's verification key in {@code group.pub}, combines k of them (Boldyreva; the unique group signature)
 * and serves drand's HTTP API with what they combine to. Every replica does so alone: a client may ask any
 * one and verify the round with the group key.
 *
 * <p>Bounded: at most {@link #CACHED_ROUNDS} combined rounds are kept (least recently used dropped; any past
 * round can be combined again), and at most {@link #MAX_GATHERING} rounds are gathered at once (a client that
 * asks for many old rounds gets 503 beyond that).
 */
public final class Beacon {
    public static final int CACHED_ROUNDS = 4096;
    public static final int MAX_GATHERING = 64;
    private static final Pattern ROUND_PATH = Pattern.compile("/public/(latest|[0-9]{1,18})");
    private static final Pattern PARTIAL_PATH = Pattern.compile("/partial/([0-9]{1,18})");
    private static final Pattern PARTIAL_JSON = Pattern.compile("\"partial\"\\s*:\\s*\"([0-9a-fA-F]{1,256})\"");

    /** An HTTP answer: status and JSON body. */
    public record Reply(int status, String json) {
        static Reply error(int status, String message) {
            return new Reply(status, "{\"error\":\"" + message + "\"}");
        }
    }

    /** Fetches replica {@code index}'s (1..n) partial of a round: the body of its /beacon/partial/{round}, or null. */
    public interface Peers {
        String partial(int index, long round);
    }

    private final DrandChain chain;
    private final ThresholdScheme scheme;
    private final GroupKey group;
    private final KeyShare share;
    private final Peers peers;
    private final LongSupplier clock;
    private final ExecutorService pool;
    private final Map<Long, byte[]> rounds = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
            return size() > CACHED_ROUNDS;
        }
    };
    private final Map<Long, CompletableFuture<byte[]>> gathering = new ConcurrentHashMap<>();

    public Beacon(DrandChain chain, ThresholdScheme scheme, GroupKey group, KeyShare share, Peers peers,
            LongSupplier clock, ExecutorService pool) {
        if (scheme.id() != SchemeId.BLS || group.scheme() != SchemeId.BLS) {
            throw new IllegalArgumentException("the drand beacon needs the group's threshold BLS key"
                    + " (scripts/keygen --scheme bls), the group key is " + group.scheme().label());
        }
        this.chain = chain;
        this.scheme = scheme;
        this.group = group;
        this.share = share;
        this.peers = peers;
        this.clock = clock;
        this.pool = pool;
    }

    public DrandChain chain() {
        return chain;
    }

    /** Answers a GET of {@code path} under /beacon (e.g. "/info", "/public/latest", "/HASH/public/7"). */
    public Reply get(String path) {
        String prefix = "/" + chain.hashHex();
        String p = path.startsWith(prefix + "/") ? path.substring(prefix.length()) : path;
        if (p.equals("/info")) {
            return new Reply(200, chain.infoJson());
        }
        Matcher m = PARTIAL_PATH.matcher(p);
        if (m.matches()) {
            return partialReply(Long.parseLong(m.group(1)));
        }
        m = ROUND_PATH.matcher(p);
        if (!m.matches()) {
            return Reply.error(404, "no such beacon path");
        }
        long current = chain.roundAt(clock.getAsLong());
        long round = m.group(1).equals("latest") ? current : Long.parseLong(m.group(1));
        if (round < 1) {
            return Reply.error(404, "round 0 does not exist; the chain starts at round 1");
        }
        if (round > current) {
            return Reply.error(404, "round " + round + " is not due yet (current round " + current + ")");
        }
        byte[] signature;
        try {
            signature = round(round);
        } catch (TooBusyException e) {
            return Reply.error(503, "too many rounds being combined; try again");
        }
        return signature == null ? Reply.error(503, "fewer than k replicas gave their share of round " + round)
                : new Reply(200, DrandChain.roundJson(round, signature));
    }

    /** This replica's share of round r, once due. */
    private Reply partialReply(long round) {
        if (round < 1 || round > chain.roundAt(clock.getAsLong())) {
            return Reply.error(404, "round " + round + " is not due yet");
        }
        SignatureShare s = scheme.share(group, share, DrandChain.message(round));
        return new Reply(200, "{\"round\":" + round + ",\"index\":" + s.index() + ",\"partial\":\""
                + HexFormat.of().formatHex(s.value()) + "\"}");
    }

    /** The combined signature of a due round, or null if fewer than k replicas gave a valid share. */
    public byte[] round(long round) throws TooBusyException {
        synchronized (rounds) {
            byte[] known = rounds.get(round);
            if (known != null) {
                return known;
            }
        }
        CompletableFuture<byte[]> mine = new CompletableFuture<>();
        CompletableFuture<byte[]> running = gathering.putIfAbsent(round, mine);
        if (running == null) {
            if (gathering.size() > MAX_GATHERING) {
                gathering.remove(round);
                mine.complete(null);
                throw new TooBusyException();
            }
            try {
                byte[] sig = gather(round);
                if (sig != null) {
                    synchronized (rounds) {
                        rounds.put(round, sig);
                    }
                }
                mine.complete(sig);
            } catch (RuntimeException e) {
                mine.completeExceptionally(e);
                throw e;
            } finally {
                gathering.remove(round);
            }
            return mine.join();
        }
        return running.join();
    }

    /** Own share plus the peers' (asked in parallel), each checked; the first k valid combine. */
    private byte[] gather(long round) {
        byte[] message = DrandChain.message(round);
        int n = group.params().n();
        int k = group.params().k();
        List<SignatureShare> valid = new ArrayList<>();
        valid.add(scheme.share(group, share, message));
        List<CompletableFuture<SignatureShare>> asked = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            if (i != share.index()) {
                int index = i;
                asked.add(CompletableFuture.supplyAsync(() -> peerShare(index, round, message), pool));
            }
        }
        for (CompletableFuture<SignatureShare> f : asked) {
            if (valid.size() >= k) {
                break;
            }
            SignatureShare s = f.join();
            if (s != null) {
                valid.add(s);
            }
        }
        if (valid.size() < k) {
            return null;
        }
        try {
            GroupValue v = scheme.combine(group, message, valid.subList(0, k));
            return v.unique();
        } catch (ThresholdException e) {
            return null; // every share was checked: cannot happen with a correct group key
        }
    }

    /** Replica {@code index}'s share of the round, if it gave a valid one. */
    private SignatureShare peerShare(int index, long round, byte[] message) {
        String body = peers.partial(index, round);
        Matcher m = body == null ? null : PARTIAL_JSON.matcher(body);
        if (m == null || !m.find()) {
            return null;
        }
        try {
            SignatureShare s = new SignatureShare(SchemeId.BLS, index, HexFormat.of().parseHex(m.group(1)), new byte[0]);
            return scheme.verifyShare(group, message, s) ? s : null;
        } catch (IllegalArgumentException e) {
            return null; // an odd number of hex digits
        }
    }

    /** More than {@link #MAX_GATHERING} rounds are being combined. */
    public static final class TooBusyException extends Exception {
        private static final long serialVersionUID = 1L;
    }
}
