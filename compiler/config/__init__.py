"""Configuration domain: readers (Designer XML, EDT) → model → query model, relations, cards."""
