// Fetches the current round of a drand chain from BASE_URL with drand's own client library and verifies it:
// the chain info must have CHAIN_HASH and PUBLIC_KEY, the round's signature must verify under the key.
//   node fetch-round.mjs BASE_URL CHAIN_HASH PUBLIC_KEY [ROUND]
// Prints {"round":..,"randomness":"..","hash":".."} and exits 0, or prints the error and exits 1.
import { HttpCachingChain, HttpChainClient, fetchBeacon } from 'drand-client'

const [baseUrl, chainHash, publicKey, round] = process.argv.slice(2)
const options = { disableBeaconVerification: false, noCache: true, chainVerificationParams: { chainHash, publicKey } }
try {
  const chain = new HttpCachingChain(baseUrl, options)
  const client = new HttpChainClient(chain, options)
  const beacon = round ? await fetchBeacon(client, Number(round)) : await fetchBeacon(client)
  const info = await chain.info()
  console.log(JSON.stringify({ round: beacon.round, randomness: beacon.randomness, hash: info.hash }))
} catch (e) {
  console.log(`drand-client: ${e.message}`)
  process.exit(1)
}
