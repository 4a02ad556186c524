package org.bftws.samples.dealer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

import org.junit.Test;

/** The dealer's shuffle: a permutation, a function of the seed alone, and unbiased positions. */
public class DeckTest {
    @Test
    public void aShuffleIsAPermutationOfTheFreshDeckAndDependsOnlyOnTheSeed() {
        byte[] seed = seed(1);
        String[] a = Deck.shuffled(new RandomStream(seed));
        String[] b = Deck.shuffled(new RandomStream(seed.clone()));
        assertArrayEquals("same number, same deck on every replica", a, b);
        assertEquals(new HashSet<>(List.of(Deck.fresh())), new HashSet<>(Arrays.asList(a)));
        assertEquals(Deck.SIZE, new HashSet<>(Arrays.asList(a)).size());
        assertFalse("another number, another deck", Arrays.equals(a, Deck.shuffled(new RandomStream(seed(2)))));
    }

    @Test
    public void everyCardReachesTheTopAboutEquallyOften() {
        int decks = 52 * 200;
        int[] top = new int[Deck.SIZE];
        List<String> fresh = List.of(Deck.fresh());
        for (int i = 0; i < decks; i++) {
            top[fresh.indexOf(Deck.shuffled(new RandomStream(seed(i)))[0])]++;
        }
        // 200 expected per card; the bounds are beyond 5 standard deviations (sqrt(200 * 51/52) ≈ 14).
        for (int count : top) {
            assertTrue("top card count " + count, count > 130 && count < 270);
        }
    }

    @Test
    public void belowStaysInRange() {
        RandomStream r = new RandomStream(seed(3));
        for (int bound = 1; bound <= 60; bound++) {
            int v = r.below(bound);
            assertTrue(v >= 0 && v < bound);
        }
    }

    private static byte[] seed(int i) {
        byte[] s = new byte[32];
        s[0] = (byte) i;
        s[1] = (byte) (i >>> 8);
        return s;
    }
}
