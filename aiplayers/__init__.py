"""AI players made in the player factory (issue 33): search AIs and learning AIs, their
curriculum, the learning task (queue ``learning``) and the predictions they record."""
