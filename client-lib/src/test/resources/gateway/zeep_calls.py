"""Calls a BFT-WS group through the voting gateway with zeep, a SOAP client that knows nothing of the group:
it reads each service's WSDL from the gateway (?wsdl) and calls the operations it describes.

    python zeep_calls.py GATEWAY_BASE LABEL CALLS

GATEWAY_BASE is http://HOST:PORT/axis2/services/. Prints one line per call: "echo <items...>",
"counter <value>", "deal <number of cards> <distinct cards>", and "fault <reason>" for a SOAP fault.
"""
import sys

import zeep
from zeep.exceptions import Fault


def main():
    base, label, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
    settings = zeep.Settings(strict=True)
    echo = zeep.Client(base + "Echo?wsdl", settings=settings)
    counter = zeep.Client(base + "Counter?wsdl", settings=settings)
    dealer = zeep.Client(base + "Dealer?wsdl", settings=settings)
    for i in range(calls):
        try:
            items = echo.service.echo(item=["%s-%d-a" % (label, i), "%s-%d-b" % (label, i)])
            print("echo " + " ".join(items), flush=True)
        except Fault as f:
            print("fault " + f.message, flush=True)
    for i in range(calls):
        try:
            print("counter %d" % counter.service.increment(amount=i + 1), flush=True)
        except Fault as f:
            print("fault " + f.message, flush=True)
    try:
        cards = dealer.service.deal()
        print("deal %d %d" % (len(cards), len(set(cards))), flush=True)
    except Fault as f:
        print("fault " + f.message, flush=True)


if __name__ == "__main__":
    main()
