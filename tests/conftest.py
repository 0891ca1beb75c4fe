"""Suite-wide pytest setup."""


def pytest_collection_modifyitems(config, items):
    """Run the browser tests last: Playwright's sync API keeps an asyncio loop running in the
    main thread for the rest of the session, which changes how the widget and notebook tests
    (which start or look for event loops of their own) behave."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
