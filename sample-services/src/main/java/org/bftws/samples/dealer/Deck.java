package org.bftws.samples.dealer;

/**
 * A 52-card deck and its Fisher-Yates shuffle (Knuth's Algorithm P) driven by a {@link RandomStream}: every
 * permutation is equally likely when the stream is uniform, and the same seed gives the same deck.
 */
public final class Deck {
    public static final int SIZE = 52;
    private static final String RANKS = "23456789TJQKA";
    private static final String SUITS = "cdhs";

    private Deck() {
    }

    /** The deck in its fresh order (2c, 3c, ..., Ac, 2d, ..., As), shuffled with {@code random}. */
    public static String[] shuffled(RandomStream random) {
        String[] cards = fresh();
        for (int i = SIZE - 1; i > 0; i--) {
            int j = random.below(i + 1);
            String t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
        return cards;
    }

    static String[] fresh() {
        String[] cards = new String[SIZE];
        for (int s = 0; s < SUITS.length(); s++) {
            for (int r = 0; r < RANKS.length(); r++) {
                cards[s * RANKS.length() + r] = new String(new char[] {RANKS.charAt(r), SUITS.charAt(s)});
            }
        }
        return cards;
    }
}
