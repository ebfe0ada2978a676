"""REST representations of table results, their versions and standings snapshots."""

from rest_framework import serializers

from scoring.models import ResultVersion, StandingsSnapshot, TableResult


class ResultVersionSerializer(serializers.ModelSerializer):
    # None for a version nobody reviewed yet, one recorded by a live table, or a deleted login.
    submitted_by = serializers.CharField(
        source="submitted_by.username", default=None, read_only=True, allow_null=True
    )
    reviewed_by = serializers.CharField(
        source="reviewed_by.username", default=None, read_only=True, allow_null=True
    )
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
