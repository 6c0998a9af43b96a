"""The auth user an app's authentication gives: how its attributes are read."""
