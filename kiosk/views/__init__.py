"""The app's blueprints, one per area: auth, setup, dealer, spectator, history, api."""
