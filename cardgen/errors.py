"""The one exception type that reaches the user as a plain sentence."""


class CardgenError(Exception):
    """A problem with the user's input or environment, explained in one sentence.

    The CLI prints the message on stderr and exits non-zero, without a traceback.
    """
