"""REST representations of table results, their versions and standings snapshots."""

from django.contrib.auth.models import User
from rest_framework import serializers

from scoring.models import ResultVersion, StandingsSnapshot, TableResult
from tournaments.selectors import user_display_name


class ResultVersionSerializer(serializers.ModelSerializer):
    # Who entered and who reviewed the version, named as the pages name them (a player by his
    # name, never by the login he signs in with); None for a version nobody reviewed yet, one
    # recorded by a live table, or a deleted login.
    submitted_by = serializers.SerializerMethodField()
    reviewed_by = serializers.SerializerMethodField()
    sheet = serializers.JSONField()
    totals = serializers.ListField(child=serializers.IntegerField())
    placements = serializers.ListField(child=serializers.FloatField())

    class Meta:
        model = ResultVersion
        fields = [
            "number",
            "status",
            "source",
            "sheet",
            "totals",
            "placements",
            "winner_position",
            "submitted_by",
            "submitted_at",
            "reviewed_by",
            "reviewed_at",
            "note",
        ]

    def get_submitted_by(self, version: ResultVersion) -> str | None:
        return self._person(version, version.submitted_by)

    def get_reviewed_by(self, version: ResultVersion) -> str | None:
        return self._person(version, version.reviewed_by)

    def _person(self, version: ResultVersion, user: User | None) -> str | None:
        if user is None:
            return None
        return user_display_name(user, version.table.round.tournament.club_id)

    def to_representation(self, version: ResultVersion) -> dict:
        data = super().to_representation(version)
        if self.context.get("public"):
            # Spectators see the result, not who typed it in or what was argued about.
            data.update(submitted_by=None, reviewed_by=None, note="")
        return data


class TableResultSerializer(serializers.ModelSerializer):
    confirmed = ResultVersionSerializer(read_only=True, allow_null=True)  # None until confirmed
    versions = serializers.SerializerMethodField()

    class Meta:
        model = TableResult
        fields = ["table", "status", "version", "confirmed", "versions"]
        # Output only; a writable relation would list every table in a browsable API form.
        read_only_fields = ["table"]

    def get_versions(self, result: TableResult) -> list[dict]:
        versions = self.context.get("versions", [])
        return ResultVersionSerializer(versions, many=True).data


class SubmitSerializer(serializers.Serializer):
    sheet = serializers.JSONField()
    # Only compared with the table's current version: any other number is a conflict (409).
    expected_version = serializers.IntegerField(min_value=0)
    confirm = serializers.BooleanField(default=False)
    note = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class DisputeSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=1000)


class StandingsSnapshotSerializer(serializers.ModelSerializer):
    rows = serializers.ListField(child=serializers.DictField())
    # None before the first standings are computed (StandingsView answers version 0 then).
    computed_at = serializers.DateTimeField(read_only=True, allow_null=True)

    class Meta:
        model = StandingsSnapshot
        fields = ["tournament", "version", "computed_at", "rows"]
        read_only_fields = ["tournament"]  # as TableResultSerializer's
