package org.bftws.fuzz;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomGenerator;

/**
 * Structured mutations of well-formed inputs, drawn with jqwik's generators from a seeded {@link Random}: a bit
 * flipped, a byte set to an edge value, bytes inserted, deleted, duplicated or cut off, a 32-bit big-endian field
 * (the codec's lengths and counts) overwritten with an edge value, and two inputs spliced. Each mutation is a
 * function of its input, so a found input replays from the seed.
 */
final class Mutations {
    private static final int GEN_SIZE = 1000;
    private static final int[] EDGE_INTS = {0, 1, -1, 0x7fffffff, 0x80000000, 0xffff, 0x10000, 255};
    private static final byte[] EDGE_BYTES = {0, 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff, '<', '&', '"'};
    /** Markup that changes an XML document's structure (declarations, entities, sections, nesting, bad bytes). */
    private static final List<String> TOKENS = List.of("<!DOCTYPE a [<!ENTITY e 'x'>]>", "&e;", "<a>", "</a>",
            "<![CDATA[", "]]>", " xmlns:x='urn:x'", " x:y='1'", "&#0;", "&#x110000;", "<?xml version='1.1'?>",
            "\u0000", "\uFFFE", "\uD800", "<a>".repeat(100), "=\"", "--><!--", "<soapenv:Header/>");

    /** A mutation: the input it came from and a fraction (0..1) placing it, to the mutated bytes. */
    interface Mutation extends BiFunction<byte[], byte[], byte[]> {
    }

    /** One generator per kind of mutation; the kind is drawn first (jqwik's oneOf needs a property's context). */
    private final List<RandomGenerator<Mutation>> generators;

    Mutations() {
        Arbitrary<Double> at = Arbitraries.doubles().between(0, 1);
        Arbitrary<Integer> small = Arbitraries.integers().between(1, 64);
        Arbitrary<Mutation> flip = Combinators.combine(at, Arbitraries.integers().between(0, 7))
                .as((p, bit) -> (in, other) -> edit(in, p, (b, i) -> b[i] ^= (byte) (1 << bit)));
        Arbitrary<Mutation> edgeByte = Combinators.combine(at, Arbitraries.of(0, 1, 2, 3, 4, 5, 6, 7))
                .as((p, e) -> (in, other) -> edit(in, p, (b, i) -> b[i] = EDGE_BYTES[e]));
        Arbitrary<Mutation> edgeInt = Combinators.combine(at, Arbitraries.of(0, 1, 2, 3, 4, 5, 6, 7))
                .as((p, e) -> (in, other) -> edgeInt(in, p, EDGE_INTS[e]));
        // random bytes drawn from a long (jqwik's array arbitraries need a property's context for their elements)
        Arbitrary<Mutation> insert = Combinators.combine(at, small, Arbitraries.longs())
                .as((p, n, seed) -> (in, other) -> insert(in, p, randomBytes(n, seed)));
        Arbitrary<Mutation> delete = Combinators.combine(at, small).as((p, n) -> (in, other) -> delete(in, p, n));
        Arbitrary<Mutation> duplicate = Combinators.combine(at, small)
                .as((p, n) -> (in, other) -> insert(in, p, Arrays.copyOfRange(in, pos(in, p),
                        Math.min(in.length, pos(in, p) + n))));
        Arbitrary<Mutation> truncate = at.map(p -> (in, other) -> Arrays.copyOf(in, pos(in, p)));
        Arbitrary<Mutation> splice = Combinators.combine(at, at).as((p, q) -> (in, other) -> {
            byte[] head = Arrays.copyOf(in, pos(in, p));
            byte[] tail = Arrays.copyOfRange(other, pos(other, q), other.length);
            byte[] out = Arrays.copyOf(head, head.length + tail.length);
            System.arraycopy(tail, 0, out, head.length, tail.length);
            return out;
        });
        Arbitrary<Mutation> markup = Combinators.combine(at, Arbitraries.of(TOKENS))
                .as((p, t) -> (in, other) -> insert(in, p, t.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        this.generators = java.util.stream.Stream.of(flip, edgeByte, edgeInt, insert, delete, duplicate, truncate,
                splice, markup).map(a -> a.generator(GEN_SIZE)).toList();
    }

    /** One to four mutations of {@code in} ({@code other} for splicing), never returning {@code in} unchanged. */
    byte[] mutate(byte[] in, byte[] other, Random random) {
        byte[] out = in;
        int rounds = 1 + random.nextInt(4);
        for (int r = 0; r < rounds || Arrays.equals(out, in); r++) {
            out = generators.get(random.nextInt(generators.size())).next(random).value().apply(out, other);
            if (r > 16) { // mutations that kept cancelling out: append a byte, which always changes the input
                out = Arrays.copyOf(in, in.length + 1);
            }
        }
        return out;
    }

    private interface ByteEdit {
        void apply(byte[] b, int i);
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static int pos(byte[] in, double p) {
        return (int) Math.min(in.length, Math.floor(p * (in.length + 1)));
    }

    private static byte[] edit(byte[] in, double p, ByteEdit e) {
        if (in.length == 0) {
            return new byte[] {0};
        }
        byte[] out = in.clone();
        e.apply(out, Math.min(in.length - 1, pos(in, p)));
        return out;
    }

    private static byte[] edgeInt(byte[] in, double p, int v) {
        if (in.length < 4) {
            return insert(in, p, new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
        }
        byte[] out = in.clone();
        int i = Math.min(in.length - 4, pos(in, p));
        out[i] = (byte) (v >>> 24);
        out[i + 1] = (byte) (v >>> 16);
        out[i + 2] = (byte) (v >>> 8);
        out[i + 3] = (byte) v;
        return out;
    }

    private static byte[] insert(byte[] in, double p, byte[] bytes) {
        int i = pos(in, p);
        byte[] out = new byte[in.length + bytes.length];
        System.arraycopy(in, 0, out, 0, i);
        System.arraycopy(bytes, 0, out, i, bytes.length);
        System.arraycopy(in, i, out, i + bytes.length, in.length - i);
        return out;
    }

    private static byte[] delete(byte[] in, double p, int n) {
        int i = pos(in, p);
        int end = Math.min(in.length, i + n);
        byte[] out = new byte[in.length - (end - i)];
        System.arraycopy(in, 0, out, 0, i);
        System.arraycopy(in, end, out, i, in.length - end);
        return out;
    }
}
