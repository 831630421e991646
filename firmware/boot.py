# boot.py runs before main.py at every reset. Nearly empty on purpose:
# - no network: the USB serial is the hub's only link, and Wi-Fi off means no radio next to the
#   NFC readers and no GPIO36/39 glitches from its modem sleep (hardware/README.md);
# - nothing that can fail: main.py catches and prints a crash before the watchdog resets the
#   board; an error here would only leave the REPL, and an empty boot.py always gives that.
# - the safe way out is in main.py: hold the shuffle button at power-up to skip the app.
